-- Log entries of account creations, blocks and rights changes, written in the transaction of the
-- change itself and delivered by the relay (src/logrelay.ts) to the content service's log
-- (RecordLogEntries, idempotent on the origin key "auth:<id>"). Delivered rows keep their
-- delivery time for a while, then the relay prunes them.
CREATE TABLE ${schema}.log_outbox (
  id bigserial PRIMARY KEY,
  log_type text NOT NULL,
  log_action text NOT NULL,
  -- log_timestamp: MediaWiki's log has one-second resolution
  created_at timestamptz NOT NULL DEFAULT date_trunc('second', now()),
  -- 0 with the IP address as name for an anonymous performer
  performer_id bigint NOT NULL,
  performer_name text NOT NULL,
  target_ns integer NOT NULL,
  target_dbkey text NOT NULL,
  comment text NOT NULL DEFAULT '',
  -- the parameters as list=logevents shows them
  params jsonb NOT NULL DEFAULT '{}',
  -- rc_bot of the recent change
  bot boolean NOT NULL DEFAULT false,
  -- false: a log entry without a recent change (newusers/autocreate)
  publish boolean NOT NULL DEFAULT true,
  delivered_at timestamptz
);
CREATE INDEX log_outbox_pending ON ${schema}.log_outbox (id) WHERE delivered_at IS NULL;
CREATE INDEX log_outbox_delivered ON ${schema}.log_outbox (delivered_at) WHERE delivered_at IS NOT NULL;
