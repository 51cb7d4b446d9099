/*
 * The parameter type definitions both APIs validate with (MediaWiki's ParamValidator TypeDefs,
 * which its Action API and REST API share): integers and their ranges, booleans (BooleanDef),
 * enums, user names (UserDef), timestamps (TimestampDef) and expiries (ExpiryDef, over kit's one
 * expiry parser). A value that fails throws a ParamFailure naming MediaWiki's failure code, its
 * message key and parameters; each pipeline renders it in its own error shape (action/params.ts:
 * `error.code`; rest/validate.ts: `parameter-validation-failed`). Non-fatal failures (an integer
 * clamped into range, a deprecated "now" timestamp, an expiry cut to its maximum) go to `warn`.
 */
import net from 'node:net';
import { expiryExceedsMax, InvalidExpiryError, isPastExpiry, normalizeExpiry } from '@quire/kit/expiry';

/** A value a TypeDef refuses (or, given to `warn`, accepts with a warning). */
export class ParamFailure extends Error {
  constructor(
    /** MediaWiki's failure code: `badinteger`, `outofrange`, `badexpiry-past`… */
    readonly code: string,
    /** The message key (`paramvalidator-…`). */
    readonly key: string,
    /** The message parameters: the parameter's name, the value, then the key's own. */
    readonly params: (string | number)[],
    /** MediaWiki's failure data (e.g. outofrange's min/curmax/max/highmax), or null. */
    readonly data: Record<string, unknown> | null = null,
    /** The parameters with MessageValue's types, as the action API's errorformat=raw prints them. */
    readonly rawParams: unknown[] = typedParams(params),
  ) {
    super(key);
    this.name = 'ParamFailure';
  }
}

export type Warn = (failure: ParamFailure) => void;

/** MessageValue's plaintextParams/numParams: TypeDef::failure gives the name and value as plain text. */
export const plaintextParam = (v: string | number) => ({ plaintext: String(v) });
export const numParam = (v: number | '') => ({ num: v });

/** The usual typing of a failure's parameters: name and value plain text, the rest numbers. */
function typedParams(params: readonly (string | number)[]): unknown[] {
  return params.map((v, i) => (i < 2 ? plaintextParam(v) : typeof v === 'number' || v === '' ? numParam(v) : v));
}

/** The kinds of user parameter values (UserDef::PARAM_ALLOWED_USER_TYPES; "#id" is not supported). */
export type UserType = 'name' | 'ip' | 'cidr' | 'interwiki';

/** IntegerDef: a decimal integer that fits exactly. */
export function integerValue(name: string, value: string): number {
  const n = Number(value);
  if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(n)) throw new ParamFailure('badinteger', 'paramvalidator-badinteger', [name, value]);
  return n;
}

export interface IntegerRange {
  min?: number | undefined;
  max?: number | undefined;
  /** PARAM_MAX2: the maximum for callers with apihighlimits. */
  highMax?: number | undefined;
}

/**
 * NumericDef::checkRange: a number outside [min, max] (max2 for high-limit callers) is an
 * `outofrange` failure; `enforce` makes it fatal, else it is clamped with a warning (the action
 * API's default, PARAM_IGNORE_RANGE).
 */
export function checkIntegerRange(name: string, value: string, n: number, range: IntegerRange, opts: { highLimits: boolean; enforce: boolean; warn: Warn }): number {
  const { min } = range;
  const max1 = range.max;
  const max2 = range.highMax ?? max1;
  const useMax2 = max2 !== undefined && max1 !== undefined && max2 > max1 && opts.highLimits;
  const curmax = useMax2 ? max2 : max1;
  let clamped: number | undefined;
  if (min !== undefined && n < min) clamped = min;
  else if (curmax !== undefined && n > curmax) clamped = curmax;
  if (clamped === undefined) return n;
  const what = `${min !== undefined ? 'min' : ''}${max1 !== undefined ? 'max' : ''}`;
  const failure = new ParamFailure('outofrange', `paramvalidator-outofrange-${what}`, [name, value, min ?? '', curmax ?? ''], {
    min: min ?? null,
    curmax: curmax ?? null,
    max: max1 ?? null,
    highmax: max2 ?? null,
  });
  if (opts.enforce) throw failure;
  opts.warn(failure);
  return clamped;
}

/** BooleanDef's words (compared lower-cased); an empty value is false too. */
export const BOOLEAN_TRUE_VALUES: readonly string[] = ['true', 't', 'yes', 'y', 'on', '1'];
export const BOOLEAN_FALSE_VALUES: readonly string[] = ['false', 'f', 'no', 'n', 'off', '0'];

/** BooleanDef (the REST API's booleans; the action API's are present-means-true). */
export function booleanValue(name: string, value: string): boolean {
  const v = value.toLowerCase();
  if (BOOLEAN_TRUE_VALUES.includes(v)) return true;
  if (v === '' || BOOLEAN_FALSE_VALUES.includes(v)) return false;
  throw new ParamFailure('badbool', 'paramvalidator-badbool', [name, v]);
}

/** EnumDef: one of the allowed values. */
export function enumValue<V extends string>(name: string, value: string, allowed: readonly V[]): V {
  if (!(allowed as readonly string[]).includes(value)) {
    // EnumDef adds the allowed values and their count (which the English text does not show).
    const raw = [plaintextParam(name), plaintextParam(value), { list: allowed.map(plaintextParam), type: 'text' }, numParam(allowed.length)];
    throw new ParamFailure('badvalue', 'paramvalidator-badvalue-enumnotmulti', [name, value], null, raw);
  }
  return value as V;
}

// Characters and sequences a title (hence a user name) may not contain (Title::legalChars, MediaWikiTitleCodec).
const ILLEGAL_TITLE = /[#<>[\]|{}\u0000-\u001f\u007f\ufffd]|%[0-9A-Fa-f]{2}|&[A-Za-z0-9\u0080-\uffff]+;|&#[0-9]+;|&#x[0-9A-Fa-f]+;|~~~/;
// UserNameUtils::isValid's invisible and private-use characters.
const INVISIBLE = /[\u0080-\u009f\u00a0\u2000-\u200f\u2028-\u202f\u3000\ue000-\uf8ff]/u;
const MAX_NAME_BYTES = 255;

function ucfirst(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const ch = String.fromCodePoint(first);
  return ch.toUpperCase() + s.slice(ch.length);
}

export function isCidr(value: string): boolean {
  const slash = value.lastIndexOf('/');
  if (slash < 0 || !/^\d{1,3}$/.test(value.slice(slash + 1))) return false;
  const version = net.isIP(value.slice(0, slash));
  return version !== 0 && Number(value.slice(slash + 1)) <= (version === 4 ? 32 : 128);
}

/**
 * UserDef::processUser: what kind of user a value names and its canonical form, or undefined.
 * A name is read like the text of a User: title (underscores are spaces, whitespace collapsed,
 * first letter upper case, an explicit "User:" dropped) and must be valid by UserNameUtils::isValid
 * — "@" and ":" are fine there, only account creation refuses them. The auth service has the
 * final word on names; this is the syntax check MediaWiki makes while validating parameters.
 */
export function userKind(value: string, namespacePrefixes: ReadonlySet<string> = new Set()): { type: UserType; name: string } | undefined {
  // ExternalUserNames::isExternal: "prefix>Name" of an imported edit, kept as given.
  if (value.includes('>')) return value.includes('#') ? undefined : { type: 'interwiki', name: value };
  let text = value.replace(/[_\s]+/g, ' ').trim();
  const colon = text.indexOf(':');
  if (colon >= 0) {
    const prefix = text.slice(0, colon).trim().toLowerCase();
    if (prefix === 'user') text = text.slice(colon + 1).trim();
    else if (colon === 0 || namespacePrefixes.has(prefix)) return undefined;
  }
  if (text === '' || ILLEGAL_TITLE.test(text)) return undefined;
  if (net.isIP(text) !== 0) return { type: 'ip', name: net.isIPv6(text) ? text.toUpperCase() : text };
  if (isCidr(text)) return { type: 'cidr', name: text.toUpperCase() };
  text = ucfirst(text);
  if (text.includes('/') || Buffer.byteLength(text) > MAX_NAME_BYTES || INVISIBLE.test(text) || text.startsWith(':')) return undefined;
  return { type: 'name', name: text };
}

/** UserDef: a value of an allowed kind, in canonical form; anything else is `baduser`. */
export function userValue(name: string, value: string, allowed: readonly UserType[], namespacePrefixes?: ReadonlySet<string>): string {
  const kind = userKind(value, namespacePrefixes);
  if (!kind || !allowed.includes(kind.type)) throw new ParamFailure('baduser', 'paramvalidator-baduser', [name, value]);
  return kind.name;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone === 'Z' || zone === 'GMT' || zone === 'UT' || zone === 'UTC' || /^[A-IK-Za-ik-z]$/.test(zone)) return 0;
  const us = /^([ECMP])([SD])T$/.exec(zone);
  if (us) return -60 * ({ E: 5, C: 6, M: 7, P: 8 }[us[1] as 'E' | 'C' | 'M' | 'P'] - (us[2] === 'D' ? 1 : 0));
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone.replace(/^ /, '+'));
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** Milliseconds since the epoch for the formats ConvertibleTimestamp accepts, or undefined. */
export function parseTimestamp(value: string, now = Date.now()): number | undefined {
  // Out-of-range fields roll over as PHP's DateTime does them (month 13 is next January); years
  // 0–99 are years 0–99, not 1900–1999 as Date.UTC would read them.
  const utc = (y: string | number, mo: number, d: string, h: string, mi: string, s: string, zone?: string) => {
    const t = new Date(0);
    t.setUTCFullYear(Number(y), mo, Number(d));
    t.setUTCHours(Number(h), Number(mi), Number(s), 0);
    return t.getTime() - offsetMinutes(zone) * 60_000;
  };
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(value))) return utc(m[1]!, Number(m[2]) - 1, m[3]!, m[4]!, m[5]!, m[6]!);
  if ((m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,]\d{1,6})?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(value))) {
    return utc(m[1]!, Number(m[2]) - 1, m[3]!, m[4]!, m[5]!, m[6]!, m[7]);
  }
  if ((m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(?:[.,]\d{1,6})?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(value))) {
    return utc(m[1]!, Number(m[2]) - 1, m[3]!, m[4]!, m[5]!, m[6]!, m[7]);
  }
  if ((m = /^(-?\d{1,13})(?:\.(\d{1,6}))?$/.exec(value))) return Number(m[1]) * 1000;
  if ((m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d{1,6})?(?:([+\- ]\d\d)| GMT)$/.exec(value))) {
    return utc(m[1]!, Number(m[2]) - 1, m[3]!, m[4]!, m[5]!, m[6]!, m[7]);
  }
  if ((m = /^(\d{4}):(\d\d):(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(value))) return utc(m[1]!, Number(m[2]) - 1, m[3]!, m[4]!, m[5]!, m[6]!);
  const rfc2822 = /^\s*(?:[A-Z][a-z]{2},\s*)?(\d\d?)\s+([A-Z][a-z]{2})\s+(\d{2,})\s+(\d\d)\s*:\s*(\d\d)\s*:\s*(\d\d)(?:\s+([+-]\d{4}|UT|GMT|[ECMP][SD]T|[A-IK-Za-ik-z]))?(?:\s*;|$)/;
  if ((m = rfc2822.exec(value)) && MONTHS.includes(m[2]!)) {
    let y = Number(m[3]);
    if (y < 1000) y += y < 50 ? 2000 : 1900;
    return utc(y, MONTHS.indexOf(m[2]!), m[1]!, m[4]!, m[5]!, m[6]!, m[7]);
  }
  const rfc850 = /^[A-Z][a-z]{5,8}, (\d\d)-([A-Z][a-z]{2})-(\d{2}) (\d\d):(\d\d):(\d\d)(?: ([+-]\d{2}(?::?\d{2})?|[A-Z]{1,5}))?$/;
  if ((m = rfc850.exec(value)) && MONTHS.includes(m[2]!)) {
    // RFC 2616 two-digit years: within 50 years of now.
    const pivot = new Date(now).getUTCFullYear() + 50;
    let y = pivot - (pivot % 100) + Number(m[3]);
    if (y > pivot) y -= 100;
    return utc(y, MONTHS.indexOf(m[2]!), m[1]!, m[4]!, m[5]!, m[6]!, m[7]);
  }
  if ((m = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) (\d{4})\s*$/.exec(value)) && MONTHS.includes(m[1]!)) {
    return utc(m[6]!, MONTHS.indexOf(m[1]!), m[2]!, m[3]!, m[4]!, m[5]!);
  }
  return undefined;
}

/** TS_MW ("20261121051314", as the validators return timestamps) → ISO 8601. */
export function isoFromMw(ts: string): string {
  return `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}Z`;
}

/** An optional validated timestamp parameter as ISO 8601 (undefined when not given). */
export function isoFromMwParam(ts: string | undefined): string | undefined {
  return ts === undefined ? undefined : isoFromMw(ts);
}

/** TS_MW: 14 digits, UTC. */
export function toMwTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

const MIN_TS_MW = new Date(0).setUTCFullYear(0, 0, 1);
const MAX_TS_MW = Date.UTC(9999, 11, 31, 23, 59, 59);

/** TimestampDef: TS_MW; "", "0" mean now with a deprecation warning, "now" means now. */
export function timestampValue(name: string, value: string, warn: Warn): string {
  // ConvertibleTimestamp reads "", "0" and the like as "now"; MediaWiki deprecates that.
  if (value === '' || value === '0') {
    warn(new ParamFailure('unclearnowtimestamp', 'paramvalidator-unclearnowtimestamp', [name, value]));
    return toMwTimestamp(Date.now());
  }
  if (value === 'now') return toMwTimestamp(Date.now());
  const ms = parseTimestamp(value);
  // TS_MW has four digits of year: a time that rolls past 9999 (or before year 0) has no TS_MW form.
  if (ms === undefined || Number.isNaN(ms) || ms < MIN_TS_MW || ms > MAX_TS_MW) throw new ParamFailure('badtimestamp', 'paramvalidator-badtimestamp', [name, value]);
  return toMwTimestamp(ms);
}

/**
 * ExpiryDef: 'infinity' or an ISO 8601 time (kit's normalizeExpiry, the wiki's one expiry
 * parser); unreadable (`badexpiry`) and past (`badexpiry-past`) values fail; past `max` (a
 * relative duration, PARAM_MAX with PARAM_USE_MAX) the maximum is used with a warning.
 */
export function expiryValue(name: string, value: string, max: string | undefined, warn: Warn): string {
  let expiry: string;
  try {
    expiry = normalizeExpiry(value);
  } catch (e) {
    if (e instanceof InvalidExpiryError) throw new ParamFailure('badexpiry', 'paramvalidator-badexpiry', [name, value]);
    throw e;
  }
  if (isPastExpiry(expiry)) throw new ParamFailure('badexpiry-past', 'paramvalidator-badexpiry-past', [name, value]);
  if (max !== undefined && expiryExceedsMax(expiry, max)) {
    const key = 'paramvalidator-badexpiry-duration-max';
    warn(new ParamFailure(key, key, [name, value, max], null, [plaintextParam(name), plaintextParam(value), max]));
    return normalizeExpiry(max);
  }
  return expiry;
}
