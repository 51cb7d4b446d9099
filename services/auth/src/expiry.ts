/*
 * Expiries as MediaWiki's ExpiryDef accepts them: "infinite" (and its synonyms), an absolute
 * timestamp (ISO 8601 or 14-digit TS_MW), or a relative strtotime-style phrase ("1 day",
 * "2 weeks", "3 months"). Returns null for infinite, or the Date; throws on anything else.
 */
export const INFINITY_WORDS = ['infinite', 'indefinite', 'infinity', 'never'];

const UNIT_MS: Record<string, number> = {
  sec: 1000, second: 1000, min: 60_000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000, fortnight: 1_209_600_000,
};

export class BadExpiryError extends Error {}

export function parseExpiry(raw: string, now = new Date()): Date | null {
  const s = raw.trim().toLowerCase();
  if (INFINITY_WORDS.includes(s)) return null;
  if (/^\d{14}$/.test(s)) {
    const d = new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(8, 10)}:${s.slice(10, 12)}:${s.slice(12, 14)}Z`);
    if (!Number.isNaN(d.getTime())) return d;
  }
  if (/^\d{4}-\d{2}-\d{2}([t ]\d{2}:\d{2}(:\d{2})?(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?$/.test(s)) {
    const d = new Date(/[t ]/.test(s) && !/(z|[+-]\d{2}:?\d{2})$/.test(s) ? `${s}Z` : s);
    if (!Number.isNaN(d.getTime())) return d;
  }
  const parts = s.replace(/^\+/, '').split(/\s*(?:,|\band\b)\s*|\s+(?=\d)/).filter(Boolean);
  if (parts.length === 0) throw new BadExpiryError(raw);
  let t = now.getTime();
  for (const part of parts) {
    const m = /^(\d+)\s*([a-z]+?)s?$/.exec(part);
    if (!m) throw new BadExpiryError(raw);
    const n = Number(m[1]);
    const unit = m[2]!;
    if (unit === 'month' || unit === 'year') {
      const d = new Date(t);
      if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + n);
      else d.setUTCFullYear(d.getUTCFullYear() + n);
      t = d.getTime();
    } else if (UNIT_MS[unit] !== undefined) {
      t += n * UNIT_MS[unit]!;
    } else {
      throw new BadExpiryError(raw);
    }
  }
  return new Date(t);
}

export function isoOrInfinite(d: Date | null, infinite = 'infinite'): string {
  return d === null ? infinite : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
