/*
 * The one expiry parser of the wiki (MediaWiki's ExpiryDef::normalizeExpiry): the gateway's
 * `expiry` parameters (watch, watchlistexpiry), action=protect, block and userrights, and the
 * auth service's blocks and group memberships all read expiries here.
 *
 * ExpiryDef takes the four infinity words exactly as written, then PHP's strtotime() relative to
 * now (in UTC, the wiki's time zone). This is the part of strtotime's grammar that expiries use:
 *   - relative: "1 week", "+2 days", "1 year 6 months", "1 day, 2 hours", "3 mins", "2 weeks ago",
 *     "next month", "last year", "now", "today", "tomorrow", "yesterday", "midnight", "noon";
 *   - absolute: "2030-01-01", "2030-01-01 12:00[:30]", ISO 8601 with a zone, TS_MW
 *     ("20300101000000"), "@<unix seconds>", "2030/01/01", "01/02/2030" (m/d/Y),
 *     "1 January 2030", "January 1, 2030", "Jan 1 2030".
 * Whatever else strtotime would read is refused as invalid, never guessed.
 */

/** ExpiryDef::INFINITY_VALS (compared exactly, as in_array(..., true)). */
export const INFINITY_VALUES: readonly string[] = ['infinite', 'indefinite', 'infinity', 'never'];

export class InvalidExpiryError extends Error {
  constructor(readonly value: string) {
    super(`Invalid expiry value: ${value}`);
    this.name = 'InvalidExpiryError';
  }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const TIME = '(?:[ t](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.\\d+)?)?)?';
const ZONE = '(z|utc|gmt|[+-]\\d{2}:?\\d{2})?';

/** Seconds of each fixed unit; months and years move on the calendar instead. */
const UNIT_SECONDS: Record<string, number> = { sec: 1, second: 1, min: 60, minute: 60, hour: 3600, day: 86400, week: 604800, fortnight: 1209600 };
const UNIT = '(sec|second|min|minute|hour|day|week|fortnight|month|year)s?';

function zoneOffsetMs(zone: string | undefined): number {
  if (!zone || zone === 'z' || zone === 'utc' || zone === 'gmt') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}

function utc(y: number, month: number, d: number, h = 0, mi = 0, s = 0): number | undefined {
  if (month < 0 || month > 11 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return undefined;
  return Date.UTC(y, month, d, h, mi, s);
}

const num = (s: string | undefined) => (s === undefined ? 0 : Number(s));

/** strtotime's absolute forms (above), in ms; undefined when the text is none of them. */
function absoluteTime(s: string): number | undefined {
  let m: RegExpExecArray | null;
  if ((m = /^@(-?\d+)$/.exec(s))) return Number(m[1]) * 1000;
  if ((m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s))) return utc(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if ((m = new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})${TIME}${ZONE}$`).exec(s))) {
    const t = utc(+m[1]!, +m[2]! - 1, +m[3]!, num(m[4]), num(m[5]), num(m[6]));
    return t === undefined ? undefined : t - zoneOffsetMs(m[7]);
  }
  if ((m = new RegExp(`^(\\d{4})/(\\d{1,2})/(\\d{1,2})${TIME}$`).exec(s))) return utc(+m[1]!, +m[2]! - 1, +m[3]!, num(m[4]), num(m[5]), num(m[6]));
  if ((m = new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TIME}$`).exec(s))) return utc(+m[3]!, +m[1]! - 1, +m[2]!, num(m[4]), num(m[5]), num(m[6]));
  if ((m = new RegExp(`^(\\d{1,2})[ -]${MONTH_NAME}[ -](\\d{4})${TIME}$`).exec(s))) {
    return utc(+m[3]!, MONTHS.indexOf(m[2]!.slice(0, 3)), +m[1]!, num(m[4]), num(m[5]), num(m[6]));
  }
  if ((m = new RegExp(`^${MONTH_NAME} (\\d{1,2}),? (\\d{4})${TIME}$`).exec(s))) {
    return utc(+m[3]!, MONTHS.indexOf(m[1]!.slice(0, 3)), +m[2]!, num(m[4]), num(m[5]), num(m[6]));
  }
  return undefined;
}

function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  // Date.UTC overflows the day as PHP does (Jan 31 + 1 month = Mar 2 or 3).
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}

const startOfDay = (ms: number) => ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);

/** strtotime's relative forms (above), in ms from `now`; undefined when the text is not one. */
function relativeTime(s: string, now: number): number | undefined {
  const tokens = s.split(/[\s,]+/).filter(Boolean);
  if (tokens.length === 0) return undefined;
  let base = now;
  let seconds = 0;
  let months = 0;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok === 'now') continue;
    if (tok === 'today' || tok === 'midnight') base = startOfDay(base);
    else if (tok === 'tomorrow') base = startOfDay(base) + 86_400_000;
    else if (tok === 'yesterday') base = startOfDay(base) - 86_400_000;
    else if (tok === 'noon') base = startOfDay(base) + 43_200_000;
    else if (tok === 'ago') {
      // "ago" turns every relative amount read so far around.
      seconds = -seconds;
      months = -months;
    } else {
      let amount: number;
      let unitText: string | undefined;
      const word = /^(next|last|previous|this)$/.exec(tok);
      const joined = /^([+-]?)(\d+)([a-z]*)$/.exec(tok);
      if (word) {
        amount = { next: 1, last: -1, previous: -1, this: 0 }[word[1] as 'next'];
        unitText = tokens[++i];
      } else if (tok === '+' || tok === '-') {
        // "+ 1 week": a sign apart from its number.
        const n = /^(\d+)([a-z]*)$/.exec(tokens[i + 1] ?? '');
        if (!n) return undefined;
        i++;
        amount = (tok === '-' ? -1 : 1) * Number(n[1]);
        unitText = n[2] || tokens[++i];
      } else if (joined) {
        amount = (joined[1] === '-' ? -1 : 1) * Number(joined[2]);
        unitText = joined[3] || tokens[++i];
      } else return undefined;
      const unit = new RegExp(`^${UNIT}$`).exec(unitText ?? '');
      if (!unit) return undefined;
      if (unit[1] === 'month') months += amount;
      else if (unit[1] === 'year') months += 12 * amount;
      else seconds += amount * UNIT_SECONDS[unit[1]!]!;
    }
  }
  return addMonths(base, months) + seconds * 1000;
}

/**
 * ExpiryDef::normalizeExpiry: 'infinity' for the infinity words, else the time as ISO 8601
 * (seconds precision, "2030-01-01T00:00:00Z"). Throws InvalidExpiryError for what strtotime refuses.
 * Past times are returned as they are: whether that is an error is the caller's rule.
 */
export function normalizeExpiry(value: string, now = Date.now()): string {
  if (INFINITY_VALUES.includes(value)) return 'infinity';
  const s = value.trim().toLowerCase();
  const ms = absoluteTime(s) ?? relativeTime(s, now);
  if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new InvalidExpiryError(value);
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Whether a normalized expiry (ISO or 'infinity') has already passed. */
export function isPastExpiry(normalized: string, now = Date.now()): boolean {
  return normalized !== 'infinity' && Date.parse(normalized) < now;
}

/** ExpiryDef::expiryExceedsMax: a finite expiry later than `max` (a relative duration, e.g. "1 year"). */
export function expiryExceedsMax(normalized: string, max: string, now = Date.now()): boolean {
  return normalized !== 'infinity' && Date.parse(normalized) > Date.parse(normalizeExpiry(max, now));
}
