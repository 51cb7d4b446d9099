-- Words as MediaWiki's SearchUpdate indexes them for its SQL engines: every run of characters
-- outside SearchEngine::legalSearchChars() (A-Za-z_'.0-9, bytes 0x80-0xFF, -) separates words.
-- Postgres alone takes "Parent/Child" as one file-path token, so a subpage was not found by
-- either of its words.
ALTER TABLE ${schema}.page_index DROP COLUMN tsv;
ALTER TABLE ${schema}.page_index ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', regexp_replace(title_text, '[^A-Za-z0-9_''.\u0080-\uFFFF-]+', ' ', 'g')), 'A')
  || setweight(to_tsvector('english', regexp_replace(body, '[^A-Za-z0-9_''.\u0080-\uFFFF-]+', ' ', 'g')), 'B')
) STORED;
CREATE INDEX page_index_tsv ON ${schema}.page_index USING gin (tsv);
