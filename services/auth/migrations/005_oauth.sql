-- OAuth (MediaWiki's OAuth extension): consumers, users' acceptances, OAuth 2.0 tokens.
-- Secrets are never stored as given out: a row keeps a random seed and the secret handed to the
-- client is HMAC(SECRET_KEY, seed) (the extension's Utils::hmacDBSecret), so a copy of the
-- database alone signs nothing. OAuth 1.0a's HMAC-SHA1 needs the secret itself on the server,
-- which is why this is a keyed derivation and not a one-way hash.
CREATE TABLE ${schema}.oauth_consumers (
  id bigserial PRIMARY KEY,
  -- oarc_consumer_key: 32 hex characters, the OAuth 1.0a consumer key and the OAuth 2.0 client_id
  consumer_key text NOT NULL UNIQUE,
  name text NOT NULL,
  version text NOT NULL,
  owner_id bigint NOT NULL REFERENCES ${schema}.users (id),
  description text NOT NULL DEFAULT '',
  callback_url text NOT NULL DEFAULT '',
  callback_is_prefix boolean NOT NULL DEFAULT false,
  -- 1 (OAuth 1.0a) or 2 (OAuth 2.0)
  oauth_version smallint NOT NULL CHECK (oauth_version IN (1, 2)),
  grants text[] NOT NULL,
  owner_only boolean NOT NULL DEFAULT false,
  -- OAuth 2.0: confidential clients authenticate with their secret; public ones with PKCE only
  oauth2_confidential boolean NOT NULL DEFAULT true,
  -- PEM public key: the consumer signs with RSA-SHA1 instead of HMAC-SHA1
  rsa_key text NOT NULL DEFAULT '',
  secret_seed text NOT NULL,
  -- Consumer::STAGE_*: 0 proposed, 1 approved, 2 rejected, 3 expired, 4 disabled
  stage smallint NOT NULL DEFAULT 0,
  stage_reason text NOT NULL DEFAULT '',
  registered_at timestamptz NOT NULL DEFAULT now(),
  stage_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (owner_id, name, version)
);

-- A user's authorization of a consumer (oauth_accepted_consumer): one per user and consumer.
-- access_key is the OAuth 1.0a access token (32 hex); OAuth 2.0 tokens point here.
CREATE TABLE ${schema}.oauth_acceptances (
  id bigserial PRIMARY KEY,
  consumer_id bigint NOT NULL REFERENCES ${schema}.oauth_consumers (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES ${schema}.users (id),
  access_key text NOT NULL UNIQUE,
  access_secret_seed text NOT NULL,
  grants text[] NOT NULL,
  accepted_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (consumer_id, user_id)
);

-- OAuth 2.0 access tokens (JWTs; jti here) and refresh tokens: revocable, with expiry.
-- acceptance_id is null for a client_credentials token of an owner-only consumer.
CREATE TABLE ${schema}.oauth2_access_tokens (
  jti text PRIMARY KEY,
  consumer_id bigint NOT NULL REFERENCES ${schema}.oauth_consumers (id) ON DELETE CASCADE,
  acceptance_id bigint REFERENCES ${schema}.oauth_acceptances (id) ON DELETE CASCADE,
  user_id bigint NOT NULL,
  grants text[] NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked boolean NOT NULL DEFAULT false
);
CREATE INDEX oauth2_access_tokens_acceptance ON ${schema}.oauth2_access_tokens (acceptance_id);

CREATE TABLE ${schema}.oauth2_refresh_tokens (
  -- sha256 of the token handed out (hex)
  token_hash text PRIMARY KEY,
  access_jti text NOT NULL REFERENCES ${schema}.oauth2_access_tokens (jti) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  revoked boolean NOT NULL DEFAULT false
);
