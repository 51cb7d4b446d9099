-- The change feed (outbox) the search service indexes from: one row per page change, written by
-- a trigger in the transaction that changes the page, so no write path can forget it (edits now;
-- delete, undelete — a re-insert, so "create" — move and model changes when they arrive).
-- Protection changes will append "protect" rows from a trigger on the protection table.
CREATE TABLE ${schema}.page_change_feed (
  position bigserial PRIMARY KEY,
  page_id bigint NOT NULL,
  namespace integer NOT NULL,
  title text NOT NULL,                     -- DB key, without namespace
  kind text NOT NULL CHECK (kind IN ('create', 'edit', 'delete', 'move', 'model', 'protect')),
  changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  old_namespace integer,                   -- moves: where the page was
  old_title text
);

/*
 * Runs at COMMIT (a deferred constraint trigger), after taking a transaction-scoped advisory
 * lock: positions are then handed out in commit order, so a consumer that has read up to
 * position P has seen every committed change <= P, and a cursor never skips a transaction that
 * took its position earlier but committed later. The lock is held only from here to the commit.
 */
CREATE FUNCTION ${schema}.page_change_feed_append() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change_kind text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    change_kind := 'create';
  ELSIF TG_OP = 'DELETE' THEN
    change_kind := 'delete';
  ELSIF OLD.page_latest = 0 THEN
    -- The creating transaction filling in its first revision: the "create" row covers it.
    RETURN NULL;
  ELSIF OLD.page_namespace <> NEW.page_namespace OR OLD.page_title <> NEW.page_title THEN
    change_kind := 'move';
  ELSIF OLD.page_content_model <> NEW.page_content_model THEN
    change_kind := 'model';
  ELSIF OLD.page_latest <> NEW.page_latest OR OLD.page_is_redirect <> NEW.page_is_redirect THEN
    change_kind := 'edit';
  ELSE
    -- page_touched, page_links_updated, page_random…: nothing an index shows.
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('${schema}.page_change_feed'));
  IF TG_OP = 'DELETE' THEN
    INSERT INTO ${schema}.page_change_feed (page_id, namespace, title, kind)
    VALUES (OLD.page_id, OLD.page_namespace, OLD.page_title, change_kind);
  ELSE
    INSERT INTO ${schema}.page_change_feed (page_id, namespace, title, kind, old_namespace, old_title)
    VALUES (NEW.page_id, NEW.page_namespace, NEW.page_title, change_kind,
            CASE WHEN change_kind = 'move' THEN OLD.page_namespace END,
            CASE WHEN change_kind = 'move' THEN OLD.page_title END);
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER page_change_feed_append
  AFTER INSERT OR UPDATE OR DELETE ON ${schema}.page
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ${schema}.page_change_feed_append();

-- Pages that existed before the feed: one "create" each, so a new index starts complete.
INSERT INTO ${schema}.page_change_feed (page_id, namespace, title, kind)
SELECT page_id, page_namespace, page_title, 'create' FROM ${schema}.page ORDER BY page_id;
