/*
 * Expiries of blocks and group memberships, read by the wiki's one expiry parser (kit's
 * normalizeExpiry: MediaWiki's ExpiryDef rules, the same the gateway applies). Returns null for
 * infinite, or the Date; throws BadExpiryError on anything strtotime would refuse.
 */
import { INFINITY_VALUES, InvalidExpiryError, normalizeExpiry } from '@quire/kit/expiry';

export const INFINITY_WORDS = INFINITY_VALUES;

export class BadExpiryError extends Error {}

export function parseExpiry(raw: string, now = new Date()): Date | null {
  try {
    const normalized = normalizeExpiry(raw, now.getTime());
    return normalized === 'infinity' ? null : new Date(normalized);
  } catch (e) {
    if (e instanceof InvalidExpiryError) throw new BadExpiryError(raw);
    throw e;
  }
}

export function isoOrInfinite(d: Date | null, infinite = 'infinite'): string {
  return d === null ? infinite : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
