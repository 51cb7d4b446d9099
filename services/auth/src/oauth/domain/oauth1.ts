/*
 * OAuth 1.0a (the extension's MWOAuthServer over the OAuth library): the signature check
 * (HMAC-SHA1, or RSA-SHA1 for a consumer registered with a public key; timestamp within 300 s,
 * nonce once per consumer and token, remembered in the token store), and the three-legged
 * handshake: initiate → authorize → token, plus identify's JWT.
 */
import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { unauthenticated, invalidArgument, type KvStore } from '@quire/kit';
import type { AuthorizeOAuth1Request, AuthorizeOAuth1Response, OAuth1Credentials, SignedRequest } from '@quire/proto/wiki/auth/v1/oauth';
import type { AcceptanceRow, ConsumerRow } from '../store/oauth.js';
import { callbackMatches } from './callback.js';
import { usableBy, type Consumers, type OAuthContext } from './consumers.js';
import { randomHex32, safeEqual } from './secrets.js';

/** OAuthServer::$timestamp_threshold. */
const TIMESTAMP_WINDOW_SECONDS = 300;
/** How long a request token waits for the user ($wgMWOAuthRequestExpirationAge is longer; ten minutes suffices for a handshake). */
const REQUEST_TOKEN_SECONDS = 3600;

interface RequestToken {
  consumerId: number;
  secret: string;
  callback: string;
  userId: number;
  verifier: string;
}

/** The OAuth protocol's failures ("An error occurred in the OAuth protocol: …" on Special:OAuth). */
export function oauthError(code: string, text: string): Error {
  return unauthenticated(code, text, { api: { oauthError: text } });
}

/** RFC 3986 percent-encoding, as OAuth 1.0a's signature base string needs. */
export function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The signature base string: method, base URL, sorted parameters without oauth_signature. */
export function signatureBaseString(method: string, url: string, params: ReadonlyArray<{ name: string; value: string }>): string {
  const pairs = params
    .filter((p) => p.name !== 'oauth_signature' && p.name !== 'realm')
    .map((p) => [rfc3986(p.name), rfc3986(p.value)] as const)
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1));
  const normalized = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  return [method.toUpperCase(), rfc3986(normalizeBaseUrl(url)), rfc3986(normalized)].join('&');
}

/** Scheme and host in lower case, default ports dropped, no query or fragment. */
function normalizeBaseUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/**
 * MWOAuthServer::checkCallback: "oob" (the registered callback), or, when the registered callback
 * is a prefix, a URL under it (callback.ts).
 */
function checkCallback(c: ConsumerRow, callback: string): void {
  if (!c.callback_is_prefix) {
    if (callback !== 'oob') throw oauthError('mwoauth-callback-not-oob', 'oauth_callback must be set, and must be set to "oob" (case-sensitive)');
    return;
  }
  if (callback !== 'oob' && !callbackMatches(c.callback_url, callback)) {
    throw oauthError(
      'mwoauth-callback-not-oob-or-prefix',
      'oauth_callback must be set, and must be set to "oob" (case-sensitive), or the configured callback must be a prefix of the supplied callback.',
    );
  }
}

function param(req: SignedRequest, name: string): string {
  return req.params.find((p) => p.name === name)?.value ?? '';
}

export class OAuth1 {
  constructor(
    private readonly o: OAuthContext,
    private readonly consumers: Consumers,
    private readonly kv: KvStore,
  ) {}

  /**
   * OAuthServer::check_signature for a consumer and an optional token secret: timestamp, nonce
   * (taken even when the signature then fails, as the library does), then the signature itself.
   */
  private async checkSignature(req: SignedRequest, c: ConsumerRow, token: string, tokenSecret: string): Promise<void> {
    const timestamp = param(req, 'oauth_timestamp');
    if (!timestamp) throw oauthError('mwoauth-invalid-authorization', 'Missing timestamp parameter. The parameter is required');
    const now = Math.floor(Date.now() / 1000);
    if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > TIMESTAMP_WINDOW_SECONDS) {
      throw oauthError('mwoauth-invalid-authorization', `Expired timestamp, yours ${timestamp}, ours ${now}`);
    }
    const nonce = param(req, 'oauth_nonce');
    if (!nonce) throw oauthError('mwoauth-invalid-authorization', 'Missing nonce parameter. The parameter is required');
    const ttl = Math.max(1, Number(timestamp) + TIMESTAMP_WINDOW_SECONDS - now);
    const nonceKey = `oauth1-nonce:${c.consumer_key}:${token}:${crypto.createHash('sha256').update(nonce).digest('hex')}`;
    if (!(await this.kv.setIfAbsent(nonceKey, '1', ttl))) throw oauthError('mwoauth-invalid-authorization', `Nonce already used: ${nonce}`);
    const method = param(req, 'oauth_signature_method');
    const base = signatureBaseString(req.method, req.url, req.params);
    const signature = param(req, 'oauth_signature');
    let valid = false;
    if (method === 'HMAC-SHA1') {
      const key = `${rfc3986(this.consumers.secretOf(c))}&${rfc3986(tokenSecret)}`;
      const expected = crypto.createHmac('sha1', key).update(base).digest('base64');
      valid = safeEqual(expected, signature);
    } else if (method === 'RSA-SHA1' && c.rsa_key) {
      try {
        valid = crypto.verify('RSA-SHA1', Buffer.from(base), c.rsa_key, Buffer.from(signature, 'base64'));
      } catch {
        valid = false;
      }
    } else {
      throw oauthError('mwoauth-invalid-authorization', `Signature method '${method}' not supported try one of the following: ${c.rsa_key ? 'HMAC-SHA1, RSA-SHA1' : 'HMAC-SHA1'}`);
    }
    if (!valid) throw oauthError('mwoauth-invalid-authorization', 'Invalid signature');
  }

  private async consumerOf(req: SignedRequest): Promise<ConsumerRow> {
    const key = param(req, 'oauth_consumer_key');
    const c = /^[0-9a-f]{32}$/.test(key) ? await this.o.store.consumerByKey(key) : null;
    if (c?.oauth_version !== 1) throw oauthError('mwoauth-invalid-authorization', 'Invalid consumer key');
    return c;
  }

  /** Special:OAuth/initiate: a request token bound to the callback ("oob", or under a registered prefix). */
  async initiate(req: SignedRequest): Promise<OAuth1Credentials> {
    const c = await this.consumerOf(req);
    if (c.owner_only) throw oauthError('mwoauthserver-consumer-owner-only', `Owner-only consumer "${c.name}" cannot use the authorization handshake.`);
    await this.checkSignature(req, c, '', '');
    const callback = param(req, 'oauth_callback');
    checkCallback(c, callback);
    const key = randomHex32();
    const token: RequestToken = { consumerId: c.id, secret: randomHex32(), callback, userId: 0, verifier: '' };
    await this.kv.set(`oauth1-request:${key}`, JSON.stringify(token), REQUEST_TOKEN_SECONDS);
    return { key, secret: token.secret, callbackConfirmed: true };
  }

  private async requestToken(c: ConsumerRow, key: string): Promise<RequestToken> {
    const raw = /^[0-9a-f]{32}$/.test(key) ? await this.kv.get(`oauth1-request:${key}`) : null;
    const token = raw ? (JSON.parse(raw) as RequestToken) : null;
    if (!token || token.consumerId !== c.id) throw oauthError('mwoauthdatastore-request-token-not-found', 'The request token was not found: it may have expired or been used already.');
    return token;
  }

  /** The consent page's consumer for a request token. */
  async describe(consumerKey: string, requestToken: string): Promise<ConsumerRow> {
    const c = await this.consumers.byKey(consumerKey);
    if (c.oauth_version !== 1) throw invalidArgument('mwoauth-invalid-consumer-key', 'No consumer was found with the given key.');
    await this.requestToken(c, requestToken);
    return c;
  }

  /** The user's answer: on approval, the verifier and the callback with oauth_verifier and oauth_token. */
  async authorize(req: AuthorizeOAuth1Request): Promise<AuthorizeOAuth1Response> {
    const c = await this.describe(req.consumerKey, req.requestToken);
    const token = await this.requestToken(c, req.requestToken);
    if (!req.approve) {
      await this.kv.del(`oauth1-request:${req.requestToken}`);
      return { callbackUrl: '', verifier: '' };
    }
    if (!usableBy(c, req.userId))
      throw oauthError('mwoauth-invalid-authorization-not-approved', `The app that you are trying to connect seems to be set up incorrectly. Contact the author of "${c.name}" for help.`);
    // The consumer's callback may have changed since initiate: the token's must still be allowed.
    checkCallback(c, token.callback);
    await this.consumers.acceptFor(c, req.userId, c.grants);
    const verifier = randomHex32();
    await this.kv.set(`oauth1-request:${req.requestToken}`, JSON.stringify({ ...token, userId: req.userId, verifier }), REQUEST_TOKEN_SECONDS);
    // MWOAuthServer::getCallbackUrl: "oob" goes to the registered callback.
    const target = new URL(token.callback === 'oob' ? c.callback_url : token.callback);
    target.searchParams.set('oauth_verifier', verifier);
    target.searchParams.set('oauth_token', req.requestToken);
    return { callbackUrl: target.toString(), verifier };
  }

  /** Special:OAuth/token: the authorized request token (used once) for the access token. */
  async exchange(req: SignedRequest): Promise<OAuth1Credentials> {
    const c = await this.consumerOf(req);
    const key = param(req, 'oauth_token');
    const token = await this.requestToken(c, key);
    await this.checkSignature(req, c, key, token.secret);
    if (!token.userId || !safeEqual(token.verifier, param(req, 'oauth_verifier'))) {
      throw oauthError('mwoauthdatastore-bad-verifier', 'The verification code provided was not valid.');
    }
    if (!(await this.kv.del(`oauth1-request:${key}`))) throw oauthError('mwoauthdatastore-request-token-already-used', 'The request token was already used.');
    const acceptance = await this.o.store.acceptance(c.id, token.userId);
    if (!acceptance) throw oauthError('mwoauthdatastore-access-token-not-found', 'No approved grant was found for that authorization token.');
    return { key: acceptance.access_key, secret: this.consumers.accessSecretOf(acceptance), callbackConfirmed: false };
  }

  /** A request signed with an access token: the consumer and the user's acceptance. */
  async verifyAccess(req: SignedRequest): Promise<{ consumer: ConsumerRow; acceptance: AcceptanceRow }> {
    const c = await this.consumerOf(req);
    const key = param(req, 'oauth_token');
    const acceptance = /^[0-9a-f]{32}$/.test(key) ? await this.o.store.acceptanceByKey(key) : null;
    if (!acceptance || acceptance.consumer_id !== c.id) throw oauthError('mwoauth-invalid-authorization', `Invalid access token: ${key}`);
    await this.checkSignature(req, c, key, this.consumers.accessSecretOf(acceptance));
    return { consumer: c, acceptance };
  }

  /** Special:OAuth/identify: the user statement as a JWT signed (HS256) with the consumer secret. */
  async identify(req: SignedRequest, statement: Record<string, unknown>, c: ConsumerRow): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims = { ...statement, nonce: param(req, 'oauth_nonce') };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(new URL(req.url).origin)
      .setAudience(c.consumer_key)
      .setIssuedAt(now)
      .setExpirationTime(now + 100)
      .sign(new TextEncoder().encode(this.consumers.secretOf(c)));
  }
}
