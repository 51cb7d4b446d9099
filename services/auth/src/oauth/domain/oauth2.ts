/*
 * OAuth 2.0 (the extension's league/oauth2-server setup): authorization code with PKCE, refresh
 * tokens, client credentials for owner-only consumers, and Bearer access tokens. Access tokens
 * are JWTs (HS256 with a key derived from SECRET_KEY) whose `jti` row says whether they were
 * revoked; codes are single-use entries in the token store.
 */
import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { ServiceError, GrpcStatus, type KvStore } from '@quire/kit';
import type { AuthorizeOAuth2Request, AuthorizeOAuth2Response, IssueOAuth2TokenRequest, OAuth2Token } from '@quire/proto/wiki/auth/v1/oauth';
import type { AccessTokenRow, AcceptanceRow, ConsumerRow } from '../store/oauth.js';
import { callbackMatches } from './callback.js';
import { toConsumer, usableBy, type Consumers, type OAuthContext } from './consumers.js';
import { safeEqual, sha256Hex } from './secrets.js';

/** $wgOAuth2GrantExpirationInterval (PT4H) and $wgOAuth2RefreshTokenTTL (P365D). */
export const ACCESS_TOKEN_SECONDS = 4 * 3600;
export const REFRESH_TOKEN_SECONDS = 365 * 86400;
/** league/oauth2-server's authorization code lifetime (PT10M). */
const CODE_SECONDS = 600;
/** An owner-only consumer's token has no expiry in the extension; a row needs a date. */
const NEVER = new Date('9999-12-31T00:00:00Z');

interface PendingCode {
  consumerId: number;
  userId: number;
  acceptanceId: number;
  redirectUri: string;
  grants: string[];
  challenge: string;
  challengeMethod: string;
}

/**
 * league/oauth2-server's errors ({error, error_description, message, hint}): `error` is the
 * MediaWiki code of the ServiceError, the HTTP status its gRPC code (401 invalid_client).
 */
export function oauth2Error(error: string, description: string, hint = ''): ServiceError {
  const grpc = error === 'invalid_client' || error === 'access_denied' ? GrpcStatus.UNAUTHENTICATED : GrpcStatus.INVALID_ARGUMENT;
  return new ServiceError(grpc, error, description, { api: { error, error_description: description, message: description, ...(hint ? { hint } : {}) } });
}

/** OAuthServerException::invalidRequest: a parameter missing or wrong (`hint` says which). */
function invalidRequest(parameter: string, hint = `Check the \`${parameter}\` parameter`): ServiceError {
  return oauth2Error('invalid_request', 'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.', hint);
}

export class OAuth2 {
  private readonly jwtKey: Uint8Array;

  constructor(
    private readonly o: OAuthContext,
    private readonly consumers: Consumers,
    private readonly kv: KvStore,
  ) {
    this.jwtKey = crypto.createHmac('sha256', o.secretKey).update('oauth2-access-token-key').digest();
  }

  private async client(clientId: string): Promise<ConsumerRow> {
    const row = /^[0-9a-f]{32}$/.test(clientId) ? await this.o.store.consumerByKey(clientId) : null;
    if (row?.oauth_version !== 2) throw oauth2Error('invalid_client', 'Client authentication failed');
    return row;
  }

  /** The redirect URI a request may use: the registered one, or one under a registered prefix (callback.ts, as OAuth 1.0a's). */
  private redirectUri(c: ConsumerRow, given: string): string {
    if (!given) return c.callback_url;
    const ok = c.callback_is_prefix ? callbackMatches(c.callback_url, given) : given === c.callback_url;
    if (!ok) throw oauth2Error('invalid_client', 'Client authentication failed', 'The redirect URI does not match the registered callback');
    return given;
  }

  private scopes(c: ConsumerRow, scope: string): string[] {
    const asked = scope.split(/[\s,]+/).filter(Boolean);
    if (asked.length === 0) return c.grants;
    const unknown = asked.filter((g) => !c.grants.includes(g) && g !== 'basic');
    if (unknown.length) throw oauth2Error('invalid_scope', 'The requested scope is invalid, unknown, or malformed', `Check the \`${unknown[0]}\` scope`);
    return [...new Set(['basic', ...asked])].filter((g) => c.grants.includes(g) || g === 'basic');
  }

  /** The consent page's check (user 0) and the user's answer (a code on approval). */
  async authorize(req: AuthorizeOAuth2Request): Promise<AuthorizeOAuth2Response> {
    const c = await this.client(req.clientId);
    const redirectUri = this.redirectUri(c, req.redirectUri);
    if (req.responseType !== 'code') throw oauth2Error('unsupported_response_type', 'The authorization server does not support obtaining an access token using this method');
    if (c.owner_only) throw oauth2Error('invalid_client', 'Client authentication failed', 'Owner-only consumers use client_credentials');
    const grants = this.scopes(c, req.scope);
    const method = req.codeChallengeMethod || (req.codeChallenge ? 'plain' : '');
    if (req.codeChallenge && method !== 'S256' && method !== 'plain') throw oauth2Error('invalid_request', 'Code challenge method must be one of `plain` or `S256`');
    if (!req.codeChallenge && !c.oauth2_confidential) throw oauth2Error('invalid_request', 'The request is missing a required parameter', 'Check the `code_challenge` parameter');
    if (req.codeChallenge && !/^[A-Za-z0-9._~-]{43,128}$/.test(req.codeChallenge)) throw oauth2Error('invalid_request', 'Code challenge must follow the specifications of RFC-7636.');
    const out: AuthorizeOAuth2Response = { consumer: toConsumer(c), redirectUri, code: '' };
    if (req.userId === 0 || !req.approve) return out;
    if (!usableBy(c, req.userId)) throw oauth2Error('access_denied', 'The resource owner or authorization server denied the request.', 'The consumer is not approved');
    const acceptance = await this.consumers.acceptFor(c, req.userId, grants);
    const code = crypto.randomBytes(32).toString('base64url');
    const pending: PendingCode = { consumerId: c.id, userId: req.userId, acceptanceId: acceptance.id, redirectUri: req.redirectUri, grants, challenge: req.codeChallenge, challengeMethod: method };
    await this.kv.set(`oauth2-code:${sha256Hex(code)}`, JSON.stringify(pending), CODE_SECONDS);
    return { ...out, code };
  }

  private authenticate(c: ConsumerRow, secret: string, required: boolean): void {
    if (!secret && !required) return;
    if (!secret || !safeEqual(this.consumers.secretOf(c), secret)) throw oauth2Error('invalid_client', 'Client authentication failed');
  }

  async token(req: IssueOAuth2TokenRequest): Promise<OAuth2Token> {
    const c = await this.client(req.clientId);
    switch (req.grantType) {
      case 'authorization_code':
        return this.redeemCode(c, req);
      case 'refresh_token':
        return this.refresh(c, req);
      case 'client_credentials': {
        this.authenticate(c, req.clientSecret, true);
        if (!c.owner_only || !usableBy(c, c.owner_id)) throw oauth2Error('unauthorized_client', 'The authenticated client is not authorized to use this authorization grant type.');
        const acceptance = await this.consumers.acceptFor(c, c.owner_id, c.grants);
        return this.issue(c, acceptance, acceptance.grants, false);
      }
      case '':
        throw invalidRequest('grant_type');
      default:
        throw oauth2Error('unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.', 'Check that all required parameters have been provided');
    }
  }

  private async redeemCode(c: ConsumerRow, req: IssueOAuth2TokenRequest): Promise<OAuth2Token> {
    this.authenticate(c, req.clientSecret, c.oauth2_confidential);
    // AbstractGrant::validateClient: a redirect URI given is one the client may use (the code stays unused otherwise).
    if (req.redirectUri) this.redirectUri(c, req.redirectUri);
    if (!req.code) throw invalidRequest('code');
    const key = `oauth2-code:${sha256Hex(req.code)}`;
    const raw = await this.kv.get(key);
    // Single use: only the caller whose delete removed the entry may redeem it.
    if (!raw || !(await this.kv.del(key)))
      throw oauth2Error(
        'invalid_grant',
        'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
        'Authorization code has expired or was already used',
      );
    const pending = JSON.parse(raw) as PendingCode;
    if (pending.consumerId !== c.id) throw invalidRequest('code', 'Authorization code was not issued to this client');
    // AuthCodeGrant: the authorization request's redirect URI, given again exactly (or absent from both).
    if (pending.redirectUri && !req.redirectUri) throw invalidRequest('redirect_uri');
    if (pending.redirectUri !== req.redirectUri) throw invalidRequest('redirect_uri', 'Invalid redirect URI');
    if (pending.challenge) {
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(req.codeVerifier)) throw oauth2Error('invalid_request', 'Code Verifier must follow the specifications of RFC-7636.');
      const computed = pending.challengeMethod === 'S256' ? crypto.createHash('sha256').update(req.codeVerifier).digest('base64url') : req.codeVerifier;
      if (!safeEqual(computed, pending.challenge))
        throw oauth2Error(
          'invalid_grant',
          'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
          'Failed to verify `code_verifier`.',
        );
    }
    const acceptance = await this.o.store.acceptanceById(pending.acceptanceId);
    if (!acceptance) throw oauth2Error('invalid_grant', 'The authorization was revoked.');
    return this.issue(c, acceptance, pending.grants, true);
  }

  private async refresh(c: ConsumerRow, req: IssueOAuth2TokenRequest): Promise<OAuth2Token> {
    this.authenticate(c, req.clientSecret, c.oauth2_confidential);
    const used = req.refreshToken ? await this.o.store.consumeRefreshToken(sha256Hex(req.refreshToken)) : null;
    if (!used || used.consumer_id !== c.id || used.acceptance_id === null) throw oauth2Error('invalid_grant', 'The refresh token is invalid.', 'Token has been revoked');
    const acceptance = await this.o.store.acceptanceById(used.acceptance_id);
    if (!acceptance) throw oauth2Error('invalid_grant', 'The refresh token is invalid.', 'Token has been revoked');
    return this.issue(c, acceptance, used.grants, true);
  }

  /** A new access token (and refresh token) for an acceptance. */
  async issue(c: ConsumerRow, acceptance: AcceptanceRow, grants: string[], withRefresh: boolean, expires = true): Promise<OAuth2Token> {
    const jti = crypto.randomBytes(20).toString('hex');
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = expires ? new Date((now + ACCESS_TOKEN_SECONDS) * 1000) : NEVER;
    let jwt = new SignJWT({ scopes: grants })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(jti)
      .setAudience(c.consumer_key)
      .setSubject(String(acceptance.user_id))
      .setIssuedAt(now)
      .setNotBefore(now);
    if (expires) jwt = jwt.setExpirationTime(now + ACCESS_TOKEN_SECONDS);
    const accessToken = await jwt.sign(this.jwtKey);
    await this.o.store.insertAccessToken({ jti, consumer_id: c.id, acceptance_id: acceptance.id, user_id: acceptance.user_id, grants, expires_at: expiresAt });
    let refreshToken = '';
    if (withRefresh) {
      refreshToken = crypto.randomBytes(32).toString('base64url');
      await this.o.store.insertRefreshToken(sha256Hex(refreshToken), jti, new Date((now + REFRESH_TOKEN_SECONDS) * 1000));
    }
    return { tokenType: 'Bearer', expiresIn: expires ? ACCESS_TOKEN_SECONDS : 0, accessToken, refreshToken };
  }

  /** The owner's token of an owner-only consumer, shown once at registration (no expiry). */
  ownerToken(c: ConsumerRow, acceptance: AcceptanceRow): Promise<string> {
    return this.issue(c, acceptance, acceptance.grants, false, false).then((t) => t.accessToken);
  }

  /** A Bearer token's row, when it is ours, unexpired and not revoked; null otherwise. */
  async verifyBearer(token: string): Promise<AccessTokenRow | null> {
    let jti: string | undefined;
    try {
      const { payload } = await jwtVerify(token, this.jwtKey, { algorithms: ['HS256'] });
      jti = payload.jti;
    } catch {
      return null;
    }
    const row = jti ? await this.o.store.accessToken(jti) : null;
    if (!row || row.revoked || row.expires_at.getTime() <= Date.now()) return null;
    return row;
  }
}
