-- The upload stash (MediaWiki 1.39's uploadstash table): files a user uploaded without publishing
-- them yet — action=upload&stash=1, an upload answered with warnings, the chunks of a chunked
-- upload and their assembled file. The bytes live in the FileStore like published files
-- (us_storage_key, the content's hex SHA-1); a chunked upload under way keeps its chunks, in
-- order, in uploadstash_chunk. Rows older than $wgUploadStashMaxAge (6 hours) are removed by the
-- next stash write (store/upload-stash.ts), as MediaWiki's cleanupUploadStash does.
CREATE TABLE ${schema}.uploadstash (
  us_id bigserial PRIMARY KEY,
  us_user bigint NOT NULL,
  us_key text NOT NULL UNIQUE,
  us_temp_name text NOT NULL,              -- "<TS_MW>!<temporary name>.<ext>", as the stash's title
  us_storage_key text,                     -- NULL while chunks are still arriving
  us_metadata jsonb NOT NULL DEFAULT '[]',
  us_size bigint NOT NULL,
  us_sha1 text NOT NULL DEFAULT '',        -- base-36, as image.img_sha1
  us_mime text NOT NULL DEFAULT '',
  us_media_type text NOT NULL DEFAULT '',
  us_image_width integer NOT NULL DEFAULT 0,
  us_image_height integer NOT NULL DEFAULT 0,
  us_image_bits integer NOT NULL DEFAULT 0,
  us_source_type text,                     -- 'file', 'chunks' or NULL, as MediaWiki's
  us_timestamp timestamptz NOT NULL,
  us_status text NOT NULL                  -- 'finished', or 'chunks' while a chunked upload goes on
);
CREATE INDEX us_user_id ON ${schema}.uploadstash (us_user, us_id);
CREATE INDEX us_timestamp ON ${schema}.uploadstash (us_timestamp);

CREATE TABLE ${schema}.uploadstash_chunk (
  uc_stash bigint NOT NULL REFERENCES ${schema}.uploadstash (us_id) ON DELETE CASCADE,
  uc_index integer NOT NULL,
  uc_storage_key text NOT NULL,
  uc_size bigint NOT NULL,
  PRIMARY KEY (uc_stash, uc_index)
);
