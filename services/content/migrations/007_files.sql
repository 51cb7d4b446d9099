-- Files, watchlists and talk-page notifications (MediaWiki 1.39's image, oldimage, filearchive,
-- watchlist + watchlist_expiry and user_newtalk tables, with PostgreSQL types).

-- The current version of every uploaded file, by name (the File: page's DB key). The bytes live
-- in the FileStore (src/files/store.ts) under img_storage_key: the hex SHA-1 of the content, so
-- equal files share one object and an object never changes once written.
CREATE TABLE ${schema}.image (
  img_name text PRIMARY KEY,
  img_size bigint NOT NULL,
  img_width integer NOT NULL DEFAULT 0,
  img_height integer NOT NULL DEFAULT 0,
  img_bits integer NOT NULL DEFAULT 0,
  img_metadata jsonb NOT NULL DEFAULT '{}',
  img_media_type text NOT NULL,            -- BITMAP, DRAWING, OFFICE, UNKNOWN
  img_major_mime text NOT NULL,
  img_minor_mime text NOT NULL,
  img_description text NOT NULL DEFAULT '',
  img_actor bigint NOT NULL REFERENCES ${schema}.actor (actor_id),
  img_timestamp timestamptz NOT NULL,
  img_sha1 text NOT NULL,                  -- base-36 SHA-1, 31 characters, as MediaWiki stores it
  img_storage_key text NOT NULL
);
CREATE INDEX img_timestamp ON ${schema}.image (img_timestamp, img_name);
CREATE INDEX img_sha1 ON ${schema}.image (img_sha1);
CREATE INDEX img_size ON ${schema}.image (img_size);
CREATE INDEX img_actor_timestamp ON ${schema}.image (img_actor, img_timestamp);
CREATE INDEX img_name_binary ON ${schema}.image (img_name COLLATE "C");

-- Earlier versions of files (re-uploads move the current row here). oi_archive_name is
-- "<YYYYMMDDHHMMSS>!<name>", the name MediaWiki gives the archived copy and its URL.
CREATE TABLE ${schema}.oldimage (
  oi_id bigserial PRIMARY KEY,
  oi_name text NOT NULL,
  oi_archive_name text NOT NULL,
  oi_size bigint NOT NULL,
  oi_width integer NOT NULL DEFAULT 0,
  oi_height integer NOT NULL DEFAULT 0,
  oi_bits integer NOT NULL DEFAULT 0,
  oi_metadata jsonb NOT NULL DEFAULT '{}',
  oi_media_type text NOT NULL,
  oi_major_mime text NOT NULL,
  oi_minor_mime text NOT NULL,
  oi_description text NOT NULL DEFAULT '',
  oi_actor bigint NOT NULL REFERENCES ${schema}.actor (actor_id),
  oi_timestamp timestamptz NOT NULL,
  oi_sha1 text NOT NULL,
  oi_storage_key text NOT NULL,
  oi_deleted smallint NOT NULL DEFAULT 0
);
CREATE INDEX oi_name_timestamp ON ${schema}.oldimage (oi_name, oi_timestamp DESC);
CREATE INDEX oi_sha1 ON ${schema}.oldimage (oi_sha1);
CREATE UNIQUE INDEX oi_archive_name ON ${schema}.oldimage (oi_archive_name);

-- Versions of deleted files (FileDeleteBatch moves rows here; restore moves them back). The
-- objects stay in the FileStore, addressed by fa_storage_key.
CREATE TABLE ${schema}.filearchive (
  fa_id bigserial PRIMARY KEY,
  fa_name text NOT NULL,
  fa_archive_name text,                    -- NULL for what was the current version
  fa_storage_key text NOT NULL,
  fa_deleted_actor bigint REFERENCES ${schema}.actor (actor_id),
  fa_deleted_timestamp timestamptz NOT NULL,
  fa_deleted_reason text NOT NULL DEFAULT '',
  fa_size bigint NOT NULL,
  fa_width integer NOT NULL DEFAULT 0,
  fa_height integer NOT NULL DEFAULT 0,
  fa_bits integer NOT NULL DEFAULT 0,
  fa_metadata jsonb NOT NULL DEFAULT '{}',
  fa_media_type text NOT NULL,
  fa_major_mime text NOT NULL,
  fa_minor_mime text NOT NULL,
  fa_description text NOT NULL DEFAULT '',
  fa_actor bigint NOT NULL REFERENCES ${schema}.actor (actor_id),
  fa_timestamp timestamptz NOT NULL,
  fa_sha1 text NOT NULL,
  fa_deleted smallint NOT NULL DEFAULT 0
);
CREATE INDEX fa_name ON ${schema}.filearchive (fa_name, fa_timestamp);
CREATE INDEX fa_sha1 ON ${schema}.filearchive (fa_sha1);

-- Watched pages. A user watches a subject page and its talk page together (two rows, as
-- WatchedItemStore). wl_user is the auth service's user id. wl_expiry NULL: watched for good;
-- an expired row counts as not watched and is dropped by the next write touching it.
CREATE TABLE ${schema}.watchlist (
  wl_id bigserial PRIMARY KEY,
  wl_user bigint NOT NULL,
  wl_namespace integer NOT NULL,
  wl_title text NOT NULL,
  wl_notificationtimestamp timestamptz,    -- first unseen change since the user last visited
  wl_expiry timestamptz,
  CONSTRAINT watchlist_user_title UNIQUE (wl_user, wl_namespace, wl_title)
);
CREATE INDEX wl_namespace_title ON ${schema}.watchlist (wl_namespace, wl_title);
CREATE INDEX wl_expiry ON ${schema}.watchlist (wl_expiry) WHERE wl_expiry IS NOT NULL;

-- Users (by name: registered names and IP addresses alike) with unseen changes to their talk
-- page (MediaWiki's user_newtalk; `hasmsg`).
CREATE TABLE ${schema}.user_newtalk (
  unt_user_name text PRIMARY KEY,
  unt_timestamp timestamptz NOT NULL
);

/*
 * A revision of "User talk:<name>" (not a subpage) saved by someone else gives <name> a new
 * message, in the saving transaction — every write path (edits, uploads, undelete, rollback…)
 * without the save code knowing about notifications. A minor edit by a bot does not
 * (MediaWiki's `nominornewtalk`, which only bots have by default).
 */
CREATE FUNCTION ${schema}.user_newtalk_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  recipient text;
  editor text;
BEGIN
  SELECT replace(page_title, '_', ' ') INTO recipient FROM ${schema}.page
   WHERE page_id = NEW.rev_page AND page_namespace = 3 AND position('/' IN page_title) = 0;
  IF recipient IS NULL OR (NEW.rev_minor_edit AND NEW.rev_bot) THEN
    RETURN NULL;
  END IF;
  SELECT actor_name INTO editor FROM ${schema}.actor WHERE actor_id = NEW.rev_actor;
  IF editor = recipient THEN
    RETURN NULL;
  END IF;
  INSERT INTO ${schema}.user_newtalk (unt_user_name, unt_timestamp) VALUES (recipient, NEW.rev_timestamp)
  ON CONFLICT (unt_user_name) DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER user_newtalk_notify
  AFTER INSERT ON ${schema}.revision
  FOR EACH ROW EXECUTE FUNCTION ${schema}.user_newtalk_notify();

/*
 * Watchers learn of a change (wl_notificationtimestamp, list=watchlistraw's `changed`) when a
 * page they watch gets a revision by someone else: set once, until they visit the page again.
 */
CREATE FUNCTION ${schema}.watchlist_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ${schema}.watchlist w SET wl_notificationtimestamp = NEW.rev_timestamp
    FROM ${schema}.page p, ${schema}.actor a
   WHERE p.page_id = NEW.rev_page AND w.wl_namespace = p.page_namespace AND w.wl_title = p.page_title
     AND a.actor_id = NEW.rev_actor AND w.wl_user IS DISTINCT FROM a.actor_user
     AND w.wl_notificationtimestamp IS NULL AND (w.wl_expiry IS NULL OR w.wl_expiry > now());
  RETURN NULL;
END
$$;

CREATE TRIGGER watchlist_notify
  AFTER INSERT ON ${schema}.revision
  FOR EACH ROW EXECUTE FUNCTION ${schema}.watchlist_notify();
