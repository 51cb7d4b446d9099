-- Pages, revisions and their content, modelled on MediaWiki 1.39's schema
-- (maintenance/tables-generated.sql) with PostgreSQL types. Namespaces are configuration.

-- Who made a revision: a registered user (id from the auth service) or an anonymous IP (user 0).
CREATE TABLE ${schema}.actor (
  actor_id bigserial PRIMARY KEY,
  actor_user bigint,                       -- NULL for anonymous editors
  actor_name text NOT NULL UNIQUE          -- user name, or the IP address
);
CREATE UNIQUE INDEX actor_user ON ${schema}.actor (actor_user) WHERE actor_user IS NOT NULL;

CREATE TABLE ${schema}.page (
  page_id bigserial PRIMARY KEY,
  page_namespace integer NOT NULL,
  page_title text NOT NULL,                -- DB key: underscores, no namespace prefix
  page_is_redirect boolean NOT NULL DEFAULT false,
  page_is_new boolean NOT NULL DEFAULT true,
  page_random double precision NOT NULL DEFAULT random(),
  page_touched timestamptz NOT NULL,
  page_links_updated timestamptz,
  page_latest bigint NOT NULL DEFAULT 0,   -- 0 only inside the transaction that creates the page
  page_len integer NOT NULL DEFAULT 0,
  page_content_model text NOT NULL,
  page_lang text,                          -- NULL: the wiki's content language
  CONSTRAINT page_name_title UNIQUE (page_namespace, page_title)
);
-- list=allpages with apminsize/apmaxsize and Special:ShortPages.
CREATE INDEX page_len ON ${schema}.page (page_len);
CREATE INDEX page_redirect_namespace_len ON ${schema}.page (page_is_redirect, page_namespace, page_len);

-- Serialized content, shared by revisions that have the same content (null edits, reverts);
-- undo, merge and the parser cache address content by id.
CREATE TABLE ${schema}.content (
  content_id bigserial PRIMARY KEY,
  content_size integer NOT NULL,           -- bytes of content_text in UTF-8
  content_sha1 text NOT NULL,              -- base-36 SHA-1, 31 characters, as MediaWiki stores it
  content_model text NOT NULL,
  content_format text NOT NULL,
  content_text text NOT NULL
);

CREATE TABLE ${schema}.revision (
  rev_id bigserial PRIMARY KEY,            -- unique across the wiki
  rev_page bigint NOT NULL REFERENCES ${schema}.page (page_id),
  rev_parent_id bigint,                    -- NULL for a page's first revision
  rev_timestamp timestamptz NOT NULL,
  rev_actor bigint NOT NULL REFERENCES ${schema}.actor (actor_id),
  rev_comment text NOT NULL DEFAULT '',
  rev_minor_edit boolean NOT NULL DEFAULT false,
  rev_deleted smallint NOT NULL DEFAULT 0, -- visibility bits: 1 text, 2 comment, 4 user, 8 restricted
  rev_len integer NOT NULL,
  rev_sha1 text NOT NULL,
  rev_content_id bigint NOT NULL REFERENCES ${schema}.content (content_id)
);
-- History of one page, newest first, keyset-paginated by id; and by time for rvstart/rvend.
CREATE INDEX rev_page_id ON ${schema}.revision (rev_page, rev_id DESC);
CREATE INDEX rev_page_timestamp ON ${schema}.revision (rev_page, rev_timestamp, rev_id);
-- Contributions and rvuser filters.
CREATE INDEX rev_actor_timestamp ON ${schema}.revision (rev_actor, rev_timestamp, rev_id);

ALTER TABLE ${schema}.page
  ADD CONSTRAINT page_latest_fk FOREIGN KEY (page_latest) REFERENCES ${schema}.revision (rev_id) DEFERRABLE INITIALLY DEFERRED;

-- Where a redirect page points; one row per page whose latest revision is a redirect.
CREATE TABLE ${schema}.redirect (
  rd_from bigint PRIMARY KEY REFERENCES ${schema}.page (page_id),
  rd_namespace integer NOT NULL,
  rd_title text NOT NULL,
  rd_interwiki text NOT NULL DEFAULT '',
  rd_fragment text NOT NULL DEFAULT ''
);
CREATE INDEX rd_ns_title ON ${schema}.redirect (rd_namespace, rd_title, rd_from);

-- The change tag registry and the tags of each revision.
CREATE TABLE ${schema}.change_tag_def (
  ctd_id serial PRIMARY KEY,
  ctd_name text NOT NULL UNIQUE,
  ctd_user_defined boolean NOT NULL,       -- defined by an administrator, not by the software
  ctd_count bigint NOT NULL DEFAULT 0
);

CREATE TABLE ${schema}.change_tag (
  ct_id bigserial PRIMARY KEY,
  ct_rev_id bigint NOT NULL REFERENCES ${schema}.revision (rev_id),
  ct_tag_id integer NOT NULL REFERENCES ${schema}.change_tag_def (ctd_id),
  CONSTRAINT change_tag_rev_tag UNIQUE (ct_rev_id, ct_tag_id)
);
CREATE INDEX change_tag_tag_id ON ${schema}.change_tag (ct_tag_id, ct_rev_id);

-- Site counters: a single row, inserted by the first start together with the Main Page, so
-- its existence also records that the wiki has been initialised.
CREATE TABLE ${schema}.site_stats (
  ss_row_id integer PRIMARY KEY CHECK (ss_row_id = 1),
  ss_total_edits bigint NOT NULL DEFAULT 0,
  ss_good_articles bigint NOT NULL DEFAULT 0,
  ss_total_pages bigint NOT NULL DEFAULT 0,
  ss_images bigint NOT NULL DEFAULT 0
);
