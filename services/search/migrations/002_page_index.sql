-- The SQL engine's index: one row per page (redirects included: a hit on a redirect answers its
-- target), written only by the change-feed indexer, in the same transaction as the cursor.
CREATE TABLE ${schema}.page_index (
  page_id bigint PRIMARY KEY,
  namespace integer NOT NULL,
  title text NOT NULL,                     -- prefixed title text, "Talk:Foo bar"
  title_text text NOT NULL,                -- without the namespace, "Foo bar"
  is_redirect boolean NOT NULL DEFAULT false,
  redirect_title text NOT NULL DEFAULT '', -- prefixed title text of the target
  size integer NOT NULL,
  word_count integer NOT NULL,
  body text NOT NULL,
  touched timestamptz NOT NULL,            -- latest revision
  created timestamptz NOT NULL,            -- first revision
  -- Title words weigh A, body words B: ts_rank ranks title matches first; intitle: matches A only.
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title_text), 'A') || setweight(to_tsvector('english', body), 'B')
  ) STORED
);
CREATE INDEX page_index_tsv ON ${schema}.page_index USING gin (tsv);
-- Title completion: case-insensitive prefix match within a namespace (LIKE 'abc%' on lower()).
CREATE INDEX page_index_completion ON ${schema}.page_index (namespace, lower(title_text) text_pattern_ops);
-- Redirect resolution and srwhat=nearmatch.
CREATE INDEX page_index_title ON ${schema}.page_index (lower(title));
CREATE INDEX page_index_touched ON ${schema}.page_index (touched);
CREATE INDEX page_index_created ON ${schema}.page_index (created);
