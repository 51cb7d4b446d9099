-- Partial blocks (MediaWiki's ipb_sitewide and ipblocks_restrictions): a block that is not
-- sitewide applies only to the pages (type 1, value = page id) and namespaces (type 2, value =
-- namespace id) listed here. Pages live in the content service: the title is kept as it was when
-- the block was placed, for the log entry; the gateway shows a page's current title by its id.
ALTER TABLE ${schema}.blocks ADD COLUMN sitewide boolean NOT NULL DEFAULT true;

CREATE TABLE ${schema}.block_restrictions (
  block_id bigint NOT NULL REFERENCES ${schema}.blocks(id) ON DELETE CASCADE,
  type smallint NOT NULL CHECK (type IN (1, 2)),
  value bigint NOT NULL,
  ns integer,
  title text,
  PRIMARY KEY (block_id, type, value)
);
