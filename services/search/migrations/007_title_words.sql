-- Title searches (list=search's default srwhat, srwhat=title, intitle:) read a GIN index of the
-- titles' words (issue 15). `tsv @@ 'word':A` asked page_index_tsv for every page with the word in
-- its title or its text, then read each one's tsvector to keep the title matches: a word on a
-- tenth of 100,000 pages cost 16 ms on average, 117 ms at p99, for a few title hits. The title's
-- words, split as migration 003 splits them, are tsv's A-weighted lexemes at the same positions
-- (the body is concatenated after), so `<this expression> @@ q` matches exactly the pages
-- `tsv @@ q:A` does.
CREATE INDEX page_index_title_words ON ${schema}.page_index
  USING gin (to_tsvector('english', regexp_replace(title_text, '[^A-Za-z0-9_''.\u0080-\uFFFF-]+', ' ', 'g')));
