-- The bytes of uploaded files when FILE_STORE=db (store/file-objects.ts): one row per object,
-- keyed like every FileStore by the content's hex SHA-1, so every content replica reads what any
-- other wrote (the local folder store is per machine). Objects never change once written.
CREATE TABLE ${schema}.file_object (
  fo_key text PRIMARY KEY CHECK (fo_key ~ '^[0-9a-f]{40}$'),
  fo_content_type text NOT NULL DEFAULT '',
  fo_size bigint NOT NULL,
  fo_data bytea NOT NULL,
  fo_created timestamptz NOT NULL DEFAULT now()
);
