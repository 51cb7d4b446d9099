/*
 * Parameter validation from declarations, as MediaWiki 1.39's ParamValidator with the action
 * API's settings (ApiParamValidator): unknown values of multi-value enums are dropped with a
 * warning, out-of-range integers are clamped with a warning unless enforceRange, booleans are
 * true when present whatever their value.
 */
import net from 'node:net';
import { expiryExceedsMax, InvalidExpiryError, isPastExpiry, normalizeExpiry } from '@quire/kit/expiry';
import { DEFAULT_USER_TYPES, type ApiMessage, type ParamDecl, type ParamValue, type Params, type UserType } from './types.js';
import { message, MessageUsageError } from './errors.js';
import { cleanUpParamValue } from './query/encoding.js';

/** ParamValidator's default multi-value limits (ISMULTI_LIMIT1/2). */
export const MULTI_LIMIT1 = 50;
export const MULTI_LIMIT2 = 500;

/** The request as validation sees it: raw values by full (prefixed) name. */
export interface ParamSource {
  get(name: string): string | undefined;
  markUsed(name: string): void;
}

export interface ValidationEnv {
  highLimits: boolean;
  /** Namespace ids of the wiki, for `namespace` params. */
  namespaces: readonly number[];
  /**
   * Lower-case names and aliases of the namespaces other than User ("talk", "project"…), for
   * `user` params: "Talk:X" is a page title, not a user name. Loaded only when a request has a
   * `user` value; empty otherwise.
   */
  namespacePrefixes?: ReadonlySet<string>;
  warn(msg: ApiMessage): void;
  /** A `limit` param given as "max" was resolved to `value` (ApiResult::addParsedLimit). */
  parsedLimit(value: number): void;
}

export interface ParamHolder {
  prefix: string;
  params: Record<string, ParamDecl>;
}

export function multiLimits(decl: ParamDecl): { low: number; high: number } {
  const low = decl.multiLimit1 ?? MULTI_LIMIT1;
  return { low, high: Math.max(low, decl.multiLimit2 ?? MULTI_LIMIT2) };
}

function fail(code: string, key: string, params: (string | number)[], data?: Record<string, unknown>): never {
  throw new MessageUsageError(message(code, key, params, data));
}

/** ParamValidator::explodeMultiValue: `a|b` or, when the value starts with U+001F, `\x1fa\x1fb`. */
export function explodeMultiValue(value: string, limit: number): string[] {
  if (value === '' || value === '\x1f') return [];
  const [sep, body] = value.startsWith('\x1f') ? ['\x1f', value.slice(1)] : ['|', value];
  const parts = body.split(sep);
  return parts.length > limit ? [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(sep)] : parts;
}

export function enumValues(decl: ParamDecl, env: ValidationEnv): readonly string[] | undefined {
  if (Array.isArray(decl.type)) return decl.type as readonly string[];
  if (decl.type === 'namespace') return env.namespaces.map(String);
  return undefined;
}

/** Validates every declared parameter of a module (names get the module's prefix). */
export function validateParams(holder: ParamHolder, src: ParamSource, env: ValidationEnv): Params {
  const out: Params = {};
  for (const [name, decl] of Object.entries(holder.params)) {
    const full = holder.prefix + name;
    src.markUsed(full);
    out[name] = validateParam(full, decl, src.get(full), env);
  }
  return out;
}

export function validateParam(name: string, decl: ParamDecl, raw: string | undefined, env: ValidationEnv): ParamValue {
  if (decl.type === 'boolean') {
    if (raw !== undefined && decl.deprecated) env.warn(message('deprecation', 'paramvalidator-param-deprecated', [name]));
    return raw !== undefined; // PresenceBooleanDef: present means true
  }
  if (decl.type === 'upload') return undefined; // files are read from ActionContext.files
  let value = raw;
  let isDefault = false;
  if (value !== undefined) {
    if (decl.deprecated) env.warn(message('deprecation', 'paramvalidator-param-deprecated', [name]));
    if (decl.type !== 'raw' && decl.type !== 'password') {
      // WebRequest hands every value over NFC-normalized; the API says when that changed it.
      value = cleanUpParamValue(value);
      if (value !== raw) env.warn(message('badutf8', 'apiwarn-badutf8', [name]));
    }
  } else if (decl.default !== undefined) {
    value = String(decl.default);
    isDefault = true;
  }
  if (value === undefined) {
    if (decl.required) fail('missingparam', 'paramvalidator-missingparam', [name]);
    return undefined;
  }

  if (!decl.multi) {
    if (value.startsWith('\x1f')) fail('badvalue', 'paramvalidator-notmulti', [name]);
    return validateOne(name, decl, value, env, false, isDefault);
  }

  const { low, high } = multiLimits(decl);
  const list = explodeMultiValue(value, high + 1);
  const allowed = enumValues(decl, env);
  if (allowed && decl.allowAll && list.length === 1 && list[0] === '*') {
    return decl.type === 'namespace' ? allowed.map(Number) : [...allowed];
  }
  const limit = list.length > low && env.highLimits ? high : low;
  if (list.length > limit) {
    fail('toomanyvalues', 'apierror-toomanyvalues', [name, limit], { limit, lowlimit: low, highlimit: high });
  }
  const valid: (string | number)[] = [];
  const invalid: string[] = [];
  for (const v of list) {
    if (allowed && !allowed.includes(v)) {
      invalid.push(v);
      continue;
    }
    const x = validateOne(name, decl, v, env, true, isDefault);
    if (typeof x === 'string' || typeof x === 'number') valid.push(x);
  }
  if (invalid.length > 0) {
    env.warn(message('unrecognizedvalues', 'paramvalidator-unrecognizedvalues', [name, invalid.join(', '), invalid.length], { values: invalid }));
  }
  const unique = [...new Set(valid)];
  return unique.every((x) => typeof x === 'number') ? (unique as number[]) : unique.map(String);
}

function validateOne(name: string, decl: ParamDecl, value: string, env: ValidationEnv, inMulti: boolean, isDefault: boolean): string | number {
  const allowed = enumValues(decl, env);
  if (allowed) {
    if (!allowed.includes(value)) fail('badvalue', 'paramvalidator-badvalue-enumnotmulti', [name, value]);
    if (!isDefault && decl.deprecatedValues?.includes(value)) {
      env.warn(message('deprecation', 'paramvalidator-deprecated-value', [name, value]));
    }
    return decl.type === 'namespace' ? Number(value) : value;
  }
  switch (decl.type) {
    case 'limit':
      if (value === 'max') {
        const max = env.highLimits ? (decl.highMax ?? decl.max) : decl.max;
        const resolved = max ?? Number.MAX_SAFE_INTEGER;
        if (!inMulti) env.parsedLimit(resolved);
        return resolved;
      }
      return validateInteger(name, decl, value, env);
    case 'integer':
      return validateInteger(name, decl, value, env);
    case 'timestamp':
      return validateTimestamp(name, value, env);
    case 'text':
      return value.replace(/\r\n?/g, '\n');
    case 'user':
      return validateUserName(name, decl, value, env);
    case 'expiry':
      return validateExpiry(name, decl, value, env);
    default:
      return value;
  }
}

function validateInteger(name: string, decl: ParamDecl, value: string, env: ValidationEnv): number {
  if (!/^[+-]?\d+$/.test(value)) fail('badinteger', 'paramvalidator-badinteger', [name, value]);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) fail('badinteger', 'paramvalidator-badinteger', [name, value]);
  const min = decl.min ?? (decl.type === 'limit' ? 0 : undefined);
  const max1 = decl.max;
  const max2 = decl.highMax ?? max1;
  let clamped = n;
  let outOfRange = false;
  if (min !== undefined && n < min) {
    outOfRange = true;
    clamped = min;
  } else if (max1 !== undefined && n > max1) {
    if (max2 !== undefined && max2 > max1 && env.highLimits) {
      if (n > max2) {
        outOfRange = true;
        clamped = max2;
      }
    } else {
      outOfRange = true;
      clamped = max1;
    }
  }
  if (!outOfRange) return n;
  const curmax = max2 !== undefined && max1 !== undefined && max2 > max1 && env.highLimits ? max2 : max1;
  const what = `${min !== undefined ? 'min' : ''}${max1 !== undefined ? 'max' : ''}`;
  const msg = message('outofrange', `paramvalidator-outofrange-${what}`, [name, value, min ?? '', curmax ?? ''], {
    min: min ?? null,
    curmax: curmax ?? null,
    max: max1 ?? null,
    highmax: max2 ?? null,
  });
  if (decl.enforceRange) throw new MessageUsageError(msg);
  env.warn(msg);
  return clamped;
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

function isCidr(value: string): boolean {
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

/** UserDef: a value of an allowed kind (ParamDecl.userTypes), in canonical form; others fail. */
function validateUserName(name: string, decl: ParamDecl, value: string, env: ValidationEnv): string {
  const kind = userKind(value, env.namespacePrefixes);
  if (!kind || !(decl.userTypes ?? DEFAULT_USER_TYPES).includes(kind.type)) fail('baduser', 'paramvalidator-baduser', [name, value]);
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
  const utc = (y: string | number, mo: number, d: string, h: string, mi: string, s: string, zone?: string) =>
    Date.UTC(Number(y), mo, Number(d), Number(h), Number(mi), Number(s)) - offsetMinutes(zone) * 60_000;
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
  const rfc2822 =
    /^\s*(?:[A-Z][a-z]{2},\s*)?(\d\d?)\s+([A-Z][a-z]{2})\s+(\d{2,})\s+(\d\d)\s*:\s*(\d\d)\s*:\s*(\d\d)(?:\s+([+-]\d{4}|UT|GMT|[ECMP][SD]T|[A-IK-Za-ik-z]))?(?:\s*;|$)/;
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

/** TS_MW ("20261121051314", as the validator returns timestamps) → ISO 8601. */
export function isoFromMw(ts: string): string {
  return `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}Z`;
}

/** TS_MW: 14 digits, UTC. */
export function toMwTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function validateTimestamp(name: string, value: string, env: ValidationEnv): string {
  // ConvertibleTimestamp reads "", "0" and the like as "now"; MediaWiki deprecates that.
  if (value === '' || value === '0') {
    env.warn(message('unclearnowtimestamp', 'paramvalidator-unclearnowtimestamp', [name, value]));
    return toMwTimestamp(Date.now());
  }
  if (value === 'now') return toMwTimestamp(Date.now());
  const ms = parseTimestamp(value);
  if (ms === undefined || Number.isNaN(ms)) fail('badtimestamp', 'paramvalidator-badtimestamp', [name, value]);
  return toMwTimestamp(ms);
}

/**
 * ExpiryDef: 'infinity' or an ISO 8601 time (kit's normalizeExpiry, the wiki's one expiry
 * parser); unreadable (`badexpiry`) and past (`badexpiry-past`) values fail; past `maxExpiry` the
 * maximum is used with a warning.
 */
function validateExpiry(name: string, decl: ParamDecl, value: string, env: ValidationEnv): string {
  let expiry: string;
  try {
    expiry = normalizeExpiry(value);
  } catch (e) {
    if (e instanceof InvalidExpiryError) fail('badexpiry', 'paramvalidator-badexpiry', [name, value]);
    throw e;
  }
  if (isPastExpiry(expiry)) fail('badexpiry-past', 'paramvalidator-badexpiry-past', [name, value]);
  if (decl.maxExpiry !== undefined && expiryExceedsMax(expiry, decl.maxExpiry)) {
    const key = 'paramvalidator-badexpiry-duration-max';
    env.warn(message(key, key, [name, value, decl.maxExpiry]));
    return normalizeExpiry(decl.maxExpiry);
  }
  return expiry;
}
