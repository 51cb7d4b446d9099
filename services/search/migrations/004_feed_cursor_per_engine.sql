-- One change-feed cursor per engine (issue 14): switching MEILISEARCH_URL on or off resumes that
-- engine's index from its own position instead of trusting the other engine's. `generation`
-- changes when a rebuild swaps the index in, so an indexer that applied a batch to the old index
-- cannot advance the new index's cursor past changes it lacks (store/cursor.ts).
CREATE TABLE ${schema}.feed_cursors (
  engine text PRIMARY KEY CHECK (engine IN ('sql', 'meilisearch')),
  position bigint NOT NULL DEFAULT 0,
  generation integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The single cursor belonged to whichever engine ran; the SQL table holds rows only when it was
-- the SQL engine. The other engine starts at 0: it reindexes the whole feed (applying is idempotent).
INSERT INTO ${schema}.feed_cursors (engine, position, updated_at)
  SELECT CASE WHEN EXISTS (SELECT 1 FROM ${schema}.page_index) THEN 'sql' ELSE 'meilisearch' END, position, updated_at
    FROM ${schema}.feed_cursor WHERE position > 0;
INSERT INTO ${schema}.feed_cursors (engine) VALUES ('sql'), ('meilisearch') ON CONFLICT (engine) DO NOTHING;
DROP TABLE ${schema}.feed_cursor;
