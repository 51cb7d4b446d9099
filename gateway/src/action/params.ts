/*
 * Parameter validation from declarations, as MediaWiki 1.39's ParamValidator with the action
 * API's settings (ApiParamValidator): unknown values of multi-value enums are dropped with a
 * warning, out-of-range integers are clamped with a warning unless enforceRange, booleans are
 * true when present whatever their value.
 */
import { checkIntegerRange, enumValue, expiryValue, integerValue, numParam, ParamFailure, plaintextParam, timestampValue, userValue } from '../validation/typedefs.js';
import { DEFAULT_USER_TYPES, type ApiMessage, type ParamDecl, type ParamValue, type Params } from './types.js';
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
  /** The module selectors a deprecation's `feature` starts with ("action=query&list=allpages"); "" for main. */
  featurePrefix?: string;
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

/** A deprecation's `feature`: the module selectors, then the parameter (ApiParamValidatorCallbacks::recordCondition). */
function featureOf(env: ValidationEnv, name: string): string {
  return env.featurePrefix ? `${env.featurePrefix}&${name}` : name;
}

/** paramvalidator-param-deprecated, as ApiBase::addDeprecation reports it. */
function deprecatedParam(name: string, value: string, env: ValidationEnv): ApiMessage {
  return { ...message('deprecation', 'paramvalidator-param-deprecated', [name, value], { feature: featureOf(env, name) }), rawParams: [plaintextParam(name), plaintextParam(value)] };
}

function fail(code: string, key: string, params: (string | number)[], data?: Record<string, unknown>, rawParams?: unknown[]): never {
  throw new MessageUsageError({ ...message(code, key, params, data), ...(rawParams ? { rawParams } : {}) });
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
  // NamespaceDef::getEnumValues: the valid (non-negative) namespaces, plus the declared extra ones.
  if (decl.type === 'namespace') return [...env.namespaces.filter((n) => n >= 0), ...(decl.extraNamespaces ?? [])].sort((a, b) => a - b).map(String);
  return undefined;
}

/** Whether `*` names every value: PARAM_ALL, which NamespaceDef forces for multi-value namespaces. */
export function allowsAll(decl: ParamDecl): boolean {
  return decl.allowAll === true || (decl.type === 'namespace' && decl.multi === true);
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
    if (raw !== undefined && decl.deprecated) env.warn(deprecatedParam(name, raw, env));
    return raw !== undefined; // PresenceBooleanDef: present means true
  }
  if (decl.type === 'upload') return undefined; // files are read from ActionContext.files
  let value = raw;
  let isDefault = false;
  if (value !== undefined) {
    if (decl.deprecated) env.warn(deprecatedParam(name, value, env));
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
    if (decl.required) fail('missingparam', 'paramvalidator-missingparam', [name], undefined, [plaintextParam(name)]);
    return undefined;
  }

  if (!decl.multi) {
    if (decl.unknownValue && Array.isArray(decl.type) && !decl.type.includes(value)) {
      const e = decl.unknownValue(value);
      fail(e.code, e.key, e.params);
    }
    if (value.startsWith('\x1f')) fail('badvalue', 'paramvalidator-notmulti', [name], undefined, [plaintextParam(name), plaintextParam(value.replace(/\x1f/g, '\ufffd'))]);
    return validateOne(name, decl, value, env, false, isDefault);
  }

  const { low, high } = multiLimits(decl);
  const list = explodeMultiValue(value, high + 1);
  const allowed = enumValues(decl, env);
  if (allowed && allowsAll(decl) && list.length === 1 && list[0] === '*') {
    return decl.type === 'namespace' ? allowed.map(Number) : [...allowed];
  }
  const limit = list.length > low && env.highLimits ? high : low;
  if (list.length > limit) {
    fail('toomanyvalues', 'paramvalidator-toomanyvalues', [name, limit], { limit, lowlimit: low, highlimit: high }, [plaintextParam(name), numParam(limit)]);
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
    const rawParams = [plaintextParam(name), plaintextParam(value), { list: invalid.map(plaintextParam), type: 'comma' }, numParam(invalid.length)];
    env.warn({ ...message('unrecognizedvalues', 'paramvalidator-unrecognizedvalues', [name, invalid.join(', '), invalid.length], { values: invalid }), rawParams });
  }
  const kept = decl.allowDuplicates ? valid : [...new Set(valid)];
  return kept.every((x) => typeof x === 'number') ? (kept as number[]) : kept.map(String);
}

/** A TypeDef failure as the action API reports it (ApiParamValidator: the failure code is the error code). */
export function messageOfFailure(f: ParamFailure): ApiMessage {
  return { ...message(f.code, f.key, f.params, f.data ?? undefined), rawParams: f.rawParams };
}

function validateOne(name: string, decl: ParamDecl, value: string, env: ValidationEnv, inMulti: boolean, isDefault: boolean): string | number {
  try {
    return validateTyped(name, decl, value, env, inMulti, isDefault);
  } catch (e) {
    if (e instanceof ParamFailure) throw new MessageUsageError(messageOfFailure(e));
    throw e;
  }
}

function validateTyped(name: string, decl: ParamDecl, value: string, env: ValidationEnv, inMulti: boolean, isDefault: boolean): string | number {
  const warn = (f: ParamFailure) => env.warn(messageOfFailure(f));
  const allowed = enumValues(decl, env);
  if (allowed) {
    enumValue(name, value, allowed);
    if (!isDefault && decl.deprecatedValues?.includes(value)) {
      const data = { feature: `${featureOf(env, name)}=${value}` };
      env.warn({ ...message('deprecation', 'paramvalidator-deprecated-value', [name, value], data), rawParams: [plaintextParam(name), plaintextParam(value)] });
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
      return checkIntegerRange(name, value, integerValue(name, value), { ...decl, min: decl.min ?? 0 }, { highLimits: env.highLimits, enforce: decl.enforceRange === true, warn });
    case 'integer':
      return checkIntegerRange(name, value, integerValue(name, value), decl, { highLimits: env.highLimits, enforce: decl.enforceRange === true, warn });
    case 'timestamp':
      return timestampValue(name, value, warn);
    case 'text':
      return value.replace(/\r\n?/g, '\n');
    case 'user':
      return userValue(name, value, decl.userTypes ?? DEFAULT_USER_TYPES, env.namespacePrefixes);
    case 'expiry':
      return expiryValue(name, value, decl.maxExpiry, warn);
    default:
      return value;
  }
}
