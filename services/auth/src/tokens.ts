import crypto from 'node:crypto';

/** The token of every type for anonymous callers; write modules accept it only from anonymous callers. */
export const ANON_TOKEN = '+\\';

/*
 * MediaWiki's token scheme (MediaWiki\Session\Token): hex(HMAC-MD5(session secret, timestamp +
 * salt)) followed by hex(timestamp) and "+\" — 42 characters like MediaWiki's. Tied to the
 * session's secret, so they stay valid for the session and change on login/logout (a new session
 * has a new secret).
 */
function tokenFor(secret: string, type: string, timestamp: number): string {
  const mac = crypto.createHmac('md5', secret).update(`${timestamp}${type}`).digest('hex');
  return `${mac}${timestamp.toString(16)}${ANON_TOKEN}`;
}

export function sessionTokens(secret: string, type: string, now = Math.floor(Date.now() / 1000)): string {
  return tokenFor(secret, type, now);
}

/** Checks a token; `generated` is the token's timestamp (0 for the anonymous token). */
export function checkToken(secret: string | null, type: string, token: string): { valid: boolean; generated: number } {
  if (secret === null) return { valid: token === ANON_TOKEN, generated: 0 };
  const m = /^([0-9a-f]{32})([0-9a-f]+)\+\\$/.exec(token);
  if (!m) return { valid: false, generated: 0 };
  const ts = parseInt(m[2]!, 16);
  const expected = Buffer.from(tokenFor(secret, type, ts));
  const given = Buffer.from(token);
  // Constant-time comparison: a timing side channel must not reveal the MAC.
  const valid = expected.length === given.length && crypto.timingSafeEqual(expected, given);
  return { valid, generated: ts };
}

/** Token types an anonymous caller needs a session for: every other type is "+\\" for them. */
export const SESSION_TOKEN_TYPES_FOR_ANONYMOUS: readonly string[] = ['login', 'createaccount'];
