/*
 * Keys, secrets and their comparison. Secrets handed out are HMAC(SECRET_KEY, seed) of a stored
 * random seed, as the OAuth extension's Utils::hmacDBSecret: the server can sign with them, a
 * copy of the database cannot.
 */
import crypto from 'node:crypto';

/** 32 hex characters: consumer keys, request and access tokens, verifiers (MWCryptRand::generateHex(32)). */
export function randomHex32(): string {
  return crypto.randomBytes(16).toString('hex');
}

export function deriveSecret(secretKey: string, seed: string): string {
  return crypto.createHmac('sha1', secretKey).update(seed).digest('hex');
}

/** Constant-time equality of two strings (different lengths are simply unequal). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}
