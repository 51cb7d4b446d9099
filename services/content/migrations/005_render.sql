-- Rendering: the parser cache, the link tables a render produces, and the durable job queue that
-- refreshes them (MediaWiki's objectcache/parsercache, pagelinks, templatelinks, categorylinks,
-- langlinks, imagelinks, externallinks, page_props and job tables, simplified: link targets are
-- stored as namespace + DB key, without the linktarget indirection of 1.39).

-- Rendered HTML per revision and output mode ('parsoid' for REST /html, 'legacy' for
-- action=parse); never re-rendered while the row exists. A template edit deletes and re-renders
-- the rows of the pages that transclude it (through refreshLinks jobs).
CREATE TABLE ${schema}.parser_cache (
  pc_rev_id bigint NOT NULL REFERENCES ${schema}.revision (rev_id),
  pc_mode text NOT NULL CHECK (pc_mode IN ('parsoid', 'legacy')),
  pc_html text NOT NULL,
  pc_meta jsonb NOT NULL,                  -- the render's metadata (sections, displaytitle, limits…)
  pc_rendered_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pc_rev_id, pc_mode)
);

CREATE TABLE ${schema}.pagelinks (
  pl_from bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  pl_namespace integer NOT NULL,
  pl_title text NOT NULL,
  PRIMARY KEY (pl_from, pl_namespace, pl_title)
);
CREATE INDEX pl_target ON ${schema}.pagelinks (pl_namespace, pl_title COLLATE "C", pl_from);

CREATE TABLE ${schema}.templatelinks (
  tl_from bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  tl_namespace integer NOT NULL,
  tl_title text NOT NULL,
  PRIMARY KEY (tl_from, tl_namespace, tl_title)
);
CREATE INDEX tl_target ON ${schema}.templatelinks (tl_namespace, tl_title COLLATE "C", tl_from);

-- cl_sortkey is MediaWiki's collation key (uppercase-first, "uppercase" collation); the prefix is
-- what the page gave ([[Category:X|prefix]] or DEFAULTSORT).
CREATE TABLE ${schema}.categorylinks (
  cl_from bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  cl_to text NOT NULL,
  cl_sortkey text NOT NULL,
  cl_sortkey_prefix text NOT NULL DEFAULT '',
  cl_timestamp timestamptz NOT NULL DEFAULT now(),
  cl_type text NOT NULL CHECK (cl_type IN ('page', 'subcat', 'file')),
  PRIMARY KEY (cl_from, cl_to)
);
CREATE INDEX cl_sortkey ON ${schema}.categorylinks (cl_to COLLATE "C", cl_type, cl_sortkey COLLATE "C", cl_from);
CREATE INDEX cl_timestamp ON ${schema}.categorylinks (cl_to COLLATE "C", cl_timestamp);

CREATE TABLE ${schema}.langlinks (
  ll_from bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  ll_lang text NOT NULL,
  ll_title text NOT NULL,
  PRIMARY KEY (ll_from, ll_lang)
);
CREATE INDEX ll_lang ON ${schema}.langlinks (ll_lang, ll_title);

CREATE TABLE ${schema}.imagelinks (
  il_from bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  il_to text NOT NULL,
  PRIMARY KEY (il_from, il_to)
);
CREATE INDEX il_to ON ${schema}.imagelinks (il_to COLLATE "C", il_from);

CREATE TABLE ${schema}.externallinks (
  el_id bigserial PRIMARY KEY,
  el_from bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  el_to text NOT NULL
);
CREATE INDEX el_from ON ${schema}.externallinks (el_from, el_id);
CREATE INDEX el_to ON ${schema}.externallinks (el_to COLLATE "C", el_from);

CREATE TABLE ${schema}.page_props (
  pp_page bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  pp_propname text NOT NULL,
  pp_value text NOT NULL,
  PRIMARY KEY (pp_page, pp_propname)
);
CREATE INDEX pp_propname_page ON ${schema}.page_props (pp_propname, pp_page);

-- The job queue (MediaWiki's JobQueueDB): claimed with a token, retried up to a few attempts.
CREATE TABLE ${schema}.job (
  job_id bigserial PRIMARY KEY,
  job_cmd text NOT NULL,
  job_namespace integer NOT NULL,
  job_title text NOT NULL,
  job_params jsonb NOT NULL DEFAULT '{}',
  job_timestamp timestamptz NOT NULL DEFAULT now(),
  job_attempts integer NOT NULL DEFAULT 0,
  job_token text NOT NULL DEFAULT '',      -- '' while unclaimed
  job_token_timestamp timestamptz
);
CREATE INDEX job_cmd_token ON ${schema}.job (job_cmd, job_token, job_id);
CREATE INDEX job_unclaimed ON ${schema}.job (job_id) WHERE job_token = '';

/*
 * Every save that changes a page's latest revision enqueues one refreshLinks job for it, in the
 * saving transaction: the link tables and parser cache follow every write path (edits now;
 * undelete, import… later) without the save code knowing about rendering. An unclaimed job for
 * the same page already waiting covers the new revision too.
 */
CREATE FUNCTION ${schema}.render_enqueue_refresh_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.page_latest = 0 OR (TG_OP = 'UPDATE' AND OLD.page_latest = NEW.page_latest) THEN
    RETURN NULL;
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM ${schema}.job
    WHERE job_cmd = 'refreshLinks' AND job_token = '' AND job_namespace = NEW.page_namespace AND job_title = NEW.page_title
  ) THEN
    INSERT INTO ${schema}.job (job_cmd, job_namespace, job_title, job_params)
    VALUES ('refreshLinks', NEW.page_namespace, NEW.page_title, jsonb_build_object('pageId', NEW.page_id, 'cause', 'edit'));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER render_enqueue_refresh_links
  AFTER INSERT OR UPDATE OF page_latest ON ${schema}.page
  FOR EACH ROW EXECUTE FUNCTION ${schema}.render_enqueue_refresh_links();

-- Pages saved before rendering existed get their link tables on the first job run.
INSERT INTO ${schema}.job (job_cmd, job_namespace, job_title, job_params)
SELECT 'refreshLinks', page_namespace, page_title, jsonb_build_object('pageId', page_id, 'cause', 'migration')
FROM ${schema}.page WHERE page_latest <> 0 ORDER BY page_id;
