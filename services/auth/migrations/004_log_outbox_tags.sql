-- Change tags of an outbox entry (action=block/unblock/userrights `tags`), delivered with it.
ALTER TABLE ${schema}.log_outbox ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
