-- Postings of the SQL engine (issue 15): one row per (word, page) with the word's score in the
-- page, so the top hits of a word are the first entries of an ordered index instead of every
-- match's tsvector read and ranked (a word on a tenth of 100,000 pages cost 250-400 ms). Words
-- are page_index.tsv's lexemes; the score is what ts_rank_cd(tsv, word) gives for that one word
-- (each occurrence counts its weight: title A 1.0, body B 0.4). Written by the indexer in the
-- same transaction as the page_index row.
CREATE FUNCTION ${schema}.posting_score(weights text[]) RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (SELECT sum(CASE w WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.4 WHEN 'C' THEN 0.2 ELSE 0.1 END) FROM unnest(weights) w)::real;
CREATE TABLE ${schema}.page_words (
  word text NOT NULL,
  page_id bigint NOT NULL,
  namespace integer NOT NULL,
  score real NOT NULL
);
-- A page's postings, replaced when it is indexed again; the words of several pages ("a b": the
-- other words of a page found by one).
ALTER TABLE ${schema}.page_words ADD CONSTRAINT page_words_pkey PRIMARY KEY (page_id, word);
-- A word's pages best first: the top 10 are the index's first 10 entries.
CREATE INDEX page_words_rank ON ${schema}.page_words (word, score DESC, page_id);
-- The pages indexed before this migration get their postings when the engine starts
-- (SqlBackend.init), a few hundred pages a transaction, page_id after `through` still to do:
-- one statement over 100,000 pages runs for minutes, past the embedded database's 60 s limit
-- for a statement. No row: every page has its postings.
CREATE TABLE ${schema}.page_words_backfill (id int PRIMARY KEY CHECK (id = 1), through bigint NOT NULL);
INSERT INTO ${schema}.page_words_backfill (id, through) SELECT 1, -1 WHERE EXISTS (SELECT 1 FROM ${schema}.page_index);
