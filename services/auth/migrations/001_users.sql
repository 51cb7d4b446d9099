-- Accounts (MediaWiki's user table), explicit group memberships with expiry, bot passwords,
-- blocks. Names are stored normalized (first letter upper case, spaces).
CREATE TABLE ${schema}.users (
  id bigserial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  password_hash text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  email_authenticated timestamptz,
  realname text NOT NULL DEFAULT '',
  options jsonb NOT NULL DEFAULT '{}'::jsonb,
  editcount bigint NOT NULL DEFAULT 0,
  registration timestamptz NOT NULL DEFAULT now(),
  last_edit timestamptz,
  -- base32 TOTP secret; NULL when two-factor authentication is off
  totp_secret text
);

CREATE TABLE ${schema}.user_groups (
  user_id bigint NOT NULL REFERENCES ${schema}.users(id) ON DELETE CASCADE,
  grp text NOT NULL,
  -- NULL = infinite
  expiry timestamptz,
  PRIMARY KEY (user_id, grp)
);
CREATE INDEX user_groups_grp ON ${schema}.user_groups (grp);

CREATE TABLE ${schema}.bot_passwords (
  user_id bigint NOT NULL REFERENCES ${schema}.users(id) ON DELETE CASCADE,
  app_id text NOT NULL,
  password_hash text NOT NULL,
  grants text[] NOT NULL,
  created timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, app_id)
);

CREATE TABLE ${schema}.blocks (
  id bigserial PRIMARY KEY,
  -- exactly one of target_user_id and target_ip
  target_user_id bigint REFERENCES ${schema}.users(id) ON DELETE CASCADE,
  target_ip text,
  by_id bigint NOT NULL,
  by_name text NOT NULL,
  reason text NOT NULL DEFAULT '',
  created timestamptz NOT NULL DEFAULT now(),
  -- NULL = infinite
  expiry timestamptz,
  anononly boolean NOT NULL DEFAULT false,
  nocreate boolean NOT NULL DEFAULT false,
  noemail boolean NOT NULL DEFAULT false,
  allowusertalk boolean NOT NULL DEFAULT false,
  CHECK ((target_user_id IS NULL) <> (target_ip IS NULL))
);
CREATE UNIQUE INDEX blocks_user ON ${schema}.blocks (target_user_id) WHERE target_user_id IS NOT NULL;
CREATE UNIQUE INDEX blocks_ip ON ${schema}.blocks (target_ip) WHERE target_ip IS NOT NULL;
