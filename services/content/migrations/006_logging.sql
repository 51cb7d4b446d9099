-- Logs, recent changes, deleted revisions and protection (MediaWiki 1.39's logging,
-- recentchanges, archive, page_restrictions and protected_titles tables, with PostgreSQL types).

-- Every logged action (deletion, move, protection, page creation, upload, user creation, block…).
CREATE TABLE ${schema}.logging (
  log_id bigserial PRIMARY KEY,
  log_type text NOT NULL,
  log_action text NOT NULL,
  log_timestamp timestamptz NOT NULL,
  log_actor bigint NOT NULL REFERENCES ${schema}.actor (actor_id),
  log_namespace integer NOT NULL,
  log_title text NOT NULL,                 -- DB key of the target, without namespace
  log_page bigint,                         -- the page id at the time of the action, if any
  log_comment text NOT NULL DEFAULT '',
  log_params jsonb NOT NULL DEFAULT '{}',  -- LogFormatter parameters, keyed as MediaWiki's ("4::target"…)
  log_deleted smallint NOT NULL DEFAULT 0,
  -- Entries delivered from another service's outbox carry their origin key: delivery is idempotent.
  log_origin text UNIQUE
);
CREATE INDEX log_type_time ON ${schema}.logging (log_type, log_timestamp, log_id);
CREATE INDEX log_actor_time ON ${schema}.logging (log_actor, log_timestamp, log_id);
CREATE INDEX log_page_time ON ${schema}.logging (log_namespace, log_title, log_timestamp, log_id);
CREATE INDEX log_times ON ${schema}.logging (log_timestamp, log_id);

-- Recent changes: edits (rc_type 0), page creations (1), log actions (3), categorization (6).
CREATE TABLE ${schema}.recentchanges (
  rc_id bigserial PRIMARY KEY,
  rc_timestamp timestamptz NOT NULL,
  rc_actor bigint NOT NULL REFERENCES ${schema}.actor (actor_id),
  rc_namespace integer NOT NULL,
  rc_title text NOT NULL,
  rc_comment text NOT NULL DEFAULT '',
  rc_minor boolean NOT NULL DEFAULT false,
  rc_bot boolean NOT NULL DEFAULT false,
  rc_new boolean NOT NULL DEFAULT false,
  rc_cur_id bigint NOT NULL DEFAULT 0,     -- page id (0 for log entries without a page)
  rc_this_oldid bigint NOT NULL DEFAULT 0,
  rc_last_oldid bigint NOT NULL DEFAULT 0,
  rc_type smallint NOT NULL CHECK (rc_type IN (0, 1, 3, 6)),
  rc_source text NOT NULL,                 -- mw.edit, mw.new, mw.log, mw.categorize
  rc_patrolled smallint NOT NULL DEFAULT 0, -- 0 unpatrolled, 1 patrolled, 2 autopatrolled
  rc_ip text NOT NULL DEFAULT '',
  rc_old_len integer,
  rc_new_len integer,
  rc_deleted smallint NOT NULL DEFAULT 0,
  rc_logid bigint REFERENCES ${schema}.logging (log_id),
  rc_log_type text,
  rc_log_action text,
  rc_params jsonb
);
CREATE INDEX rc_timestamp ON ${schema}.recentchanges (rc_timestamp, rc_id);
CREATE INDEX rc_ns_title_timestamp ON ${schema}.recentchanges (rc_namespace, rc_title, rc_timestamp);
CREATE INDEX rc_actor_timestamp ON ${schema}.recentchanges (rc_actor, rc_timestamp, rc_id);
CREATE INDEX rc_this_oldid ON ${schema}.recentchanges (rc_this_oldid);
CREATE INDEX rc_cur_id ON ${schema}.recentchanges (rc_cur_id, rc_timestamp);

-- Revisions of deleted pages (DeletePage moves them here; UndeletePage moves them back with the
-- same ids, so their change tags and history stay whole).
CREATE TABLE ${schema}.archive (
  ar_id bigserial PRIMARY KEY,
  ar_namespace integer NOT NULL,
  ar_title text NOT NULL,
  ar_comment text NOT NULL DEFAULT '',
  ar_actor bigint NOT NULL REFERENCES ${schema}.actor (actor_id),
  ar_timestamp timestamptz NOT NULL,
  ar_minor_edit boolean NOT NULL DEFAULT false,
  ar_bot boolean NOT NULL DEFAULT false,
  ar_rev_id bigint NOT NULL UNIQUE,
  ar_deleted smallint NOT NULL DEFAULT 0,
  ar_len integer NOT NULL,
  ar_page_id bigint NOT NULL,
  ar_parent_id bigint,
  ar_sha1 text NOT NULL,
  ar_content_id bigint NOT NULL REFERENCES ${schema}.content (content_id),
  ar_content_model text NOT NULL
);
CREATE INDEX ar_name_title_timestamp ON ${schema}.archive (ar_namespace, ar_title, ar_timestamp);
CREATE INDEX ar_actor_timestamp ON ${schema}.archive (ar_actor, ar_timestamp);

-- Archived revisions keep their tags: change_tag no longer requires a live revision, and it also
-- tags log entries and recent changes.
ALTER TABLE ${schema}.change_tag DROP CONSTRAINT change_tag_ct_rev_id_fkey;
ALTER TABLE ${schema}.change_tag ALTER COLUMN ct_rev_id DROP NOT NULL;
ALTER TABLE ${schema}.change_tag ADD COLUMN ct_log_id bigint REFERENCES ${schema}.logging (log_id);
ALTER TABLE ${schema}.change_tag ADD COLUMN ct_rc_id bigint REFERENCES ${schema}.recentchanges (rc_id) ON DELETE SET NULL;
ALTER TABLE ${schema}.change_tag ADD CONSTRAINT change_tag_target CHECK (ct_rev_id IS NOT NULL OR ct_log_id IS NOT NULL OR ct_rc_id IS NOT NULL);
CREATE UNIQUE INDEX change_tag_log_tag ON ${schema}.change_tag (ct_log_id, ct_tag_id) WHERE ct_log_id IS NOT NULL;
CREATE UNIQUE INDEX change_tag_rc_tag ON ${schema}.change_tag (ct_rc_id, ct_tag_id) WHERE ct_rc_id IS NOT NULL;
CREATE INDEX change_tag_tag_rc ON ${schema}.change_tag (ct_tag_id, ct_rc_id);

-- Protection of existing pages: one row per page and action (edit, move, upload).
CREATE TABLE ${schema}.page_restrictions (
  pr_id bigserial PRIMARY KEY,
  pr_page bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  pr_type text NOT NULL,
  pr_level text NOT NULL,                  -- a right: autoconfirmed (shown as the group) or sysop
  pr_cascade boolean NOT NULL DEFAULT false,
  pr_expiry timestamptz,                   -- NULL: infinite
  CONSTRAINT page_restrictions_page_type UNIQUE (pr_page, pr_type)
);
CREATE INDEX pr_cascade ON ${schema}.page_restrictions (pr_page) WHERE pr_cascade;

-- Create protection of titles that do not exist.
CREATE TABLE ${schema}.protected_titles (
  pt_namespace integer NOT NULL,
  pt_title text NOT NULL,
  pt_actor bigint NOT NULL REFERENCES ${schema}.actor (actor_id),
  pt_reason text NOT NULL DEFAULT '',
  pt_timestamp timestamptz NOT NULL,
  pt_expiry timestamptz,
  pt_create_perm text NOT NULL,
  PRIMARY KEY (pt_namespace, pt_title)
);

-- Protection changes reach the search index's feed (004 anticipated these rows).
CREATE FUNCTION ${schema}.page_restrictions_feed_append() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target record;
BEGIN
  SELECT page_id, page_namespace, page_title INTO target FROM ${schema}.page
   WHERE page_id = COALESCE(NEW.pr_page, OLD.pr_page);
  IF NOT FOUND THEN
    RETURN NULL; -- the page itself is being deleted: its "delete" row covers it
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('${schema}.page_change_feed'));
  INSERT INTO ${schema}.page_change_feed (page_id, namespace, title, kind)
  VALUES (target.page_id, target.page_namespace, target.page_title, 'protect');
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER page_restrictions_feed_append
  AFTER INSERT OR UPDATE OR DELETE ON ${schema}.page_restrictions
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ${schema}.page_restrictions_feed_append();

-- Edits saved before this table existed get their recent-change rows (MediaWiki keeps 90 days;
-- keeping all of them is simplest for a new wiki).
INSERT INTO ${schema}.recentchanges (rc_timestamp, rc_actor, rc_namespace, rc_title, rc_comment, rc_minor, rc_bot, rc_new,
  rc_cur_id, rc_this_oldid, rc_last_oldid, rc_type, rc_source, rc_patrolled, rc_old_len, rc_new_len)
SELECT r.rev_timestamp, r.rev_actor, p.page_namespace, p.page_title, r.rev_comment, r.rev_minor_edit, r.rev_bot,
       r.rev_parent_id IS NULL, p.page_id, r.rev_id, COALESCE(r.rev_parent_id, 0),
       CASE WHEN r.rev_parent_id IS NULL THEN 1 ELSE 0 END, CASE WHEN r.rev_parent_id IS NULL THEN 'mw.new' ELSE 'mw.edit' END,
       2, parent.rev_len, r.rev_len
  FROM ${schema}.revision r JOIN ${schema}.page p ON p.page_id = r.rev_page
  LEFT JOIN ${schema}.revision parent ON parent.rev_id = r.rev_parent_id
 ORDER BY r.rev_id;
