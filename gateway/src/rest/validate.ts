/*
 * Parameter and body validation (MediaWiki's Rest\Validator\Validator with ParamValidator's type
 * definitions and JsonBodyValidator). Failures are RestErrors with MediaWiki's exact fields:
 * `{error: "parameter-validation-failed", name, value, failureCode, failureData}` for parameters.
 */
import busboy from 'busboy';
import { canonicalMultipart, multipartBoundary } from '../multipart.js';
import { BOOLEAN_FALSE_VALUES, BOOLEAN_TRUE_VALUES, booleanValue, checkIntegerRange, enumValue, integerValue, ParamFailure, userValue } from '../validation/typedefs.js';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MULTIPART_CONTENT_TYPE, RestError, type BodyFieldDecl, type BodySchema, type ParamDecls, type RestParamDecl } from './types.js';

function paramFailure(name: string, value: unknown, failureCode: string, failureData: unknown, message: string): RestError {
  return new RestError(400, message, { error: 'parameter-validation-failed', name, value, failureCode, failureData });
}

/** English list as MediaWiki's textListParams: `a, b and c`. */
function andList(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The English text of a TypeDef failure, as the REST API's messageTranslations show it. */
function failureText(f: ParamFailure): string {
  const [name, value, min, max] = f.params;
  switch (f.code) {
    case 'badinteger':
      return `Invalid value "${value}" for integer parameter "${name}".`;
    case 'outofrange': {
      const range = f.key.endsWith('-minmax') ? `must be between ${min} and ${max}` : f.key.endsWith('-min') ? `must be no less than ${min}` : `must be no greater than ${max}`;
      return `The value "${value}" for parameter "${name}" ${range}.`;
    }
    case 'badbool': {
      const quote = (xs: readonly string[]) => xs.map((x) => `"${x}"`);
      return `Invalid value "${value}" for boolean parameter "${name}". Pass ${andList(quote(BOOLEAN_TRUE_VALUES))} for true, or ${andList([...quote(BOOLEAN_FALSE_VALUES), 'the empty string'])} for false.`;
    }
    case 'badvalue':
      return `Unrecognized value for parameter "${name}": ${value}.`;
    case 'baduser':
      return `Invalid value "${value}" for user parameter "${name}".`;
    default:
      return f.key;
  }
}

/** MediaWiki's failureData of each code (the REST body's `failureData`). */
const FAILURE_DATA: Record<string, unknown> = { badinteger: null, badbool: null, badvalue: [], baduser: null };

/** The shared TypeDefs (validation/typedefs.ts) with the REST API's settings: ranges are enforced. */
function validateTyped(name: string, raw: string, decl: RestParamDecl): string | number | boolean {
  const noWarnings = () => {};
  switch (decl.type) {
    case 'string':
      // Stored titles and texts are NFC, as everything MediaWiki's WebRequest hands over is.
      return raw.normalize('NFC');
    case 'integer':
      return checkIntegerRange(name, raw, integerValue(name, raw), decl, { highLimits: false, enforce: true, warn: noWarnings });
    case 'boolean':
      return booleanValue(name, raw);
    case 'enum':
      return enumValue(name, raw, decl.values);
    case 'user':
      // An empty value is no user either: UserDef refuses it (it is not missing).
      return userValue(name, raw, decl.userTypes);
  }
}

function validateOne(name: string, raw: string, decl: RestParamDecl): string | number | boolean {
  try {
    return validateTyped(name, raw, decl);
  } catch (e) {
    if (!(e instanceof ParamFailure)) throw e;
    // BooleanDef reports the value lower-cased.
    const value = e.code === 'badbool' ? e.params[1] : raw;
    throw paramFailure(name, value, e.code, e.data ?? FAILURE_DATA[e.code] ?? null, failureText(e));
  }
}

/** Raw request values of each parameter source; absent values are undefined. */
export interface RawParams {
  path: Record<string, string>;
  query: ReadonlyMap<string, string>;
  header(name: string): string | undefined;
}

/** Validates every declared parameter in declaration order, as MediaWiki's validateParams. */
export function validateParams(decls: ParamDecls, raw: RawParams): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [name, decl] of Object.entries(decls)) {
    const value = decl.source === 'path' ? raw.path[name] : decl.source === 'query' ? raw.query.get(name) : raw.header(name);
    if (value === undefined) {
      if (decl.required) throw paramFailure(name, null, 'missingparam', null, `The "${name}" parameter must be set.`);
      out[name] = decl.default;
    } else if (value === '' && decl.required && decl.type === 'string') {
      // StringDef: an empty required string counts as missing (other types reject it as invalid).
      throw paramFailure(name, value, 'missingparam', null, `The "${name}" parameter must be set.`);
    } else {
      out[name] = validateOne(name, value, decl);
    }
  }
  return out;
}

/** Query string as PHP's $_GET reads it: `+` is a space and the last of repeated keys wins. */
export function parseQuery(search: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(search)) map.set(k, v);
  return map;
}

function describeType(type: BodyFieldDecl['type']): string {
  return type === 'integer' ? 'an integer' : type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`;
}

function fieldTypeOk(value: unknown, decl: BodyFieldDecl): boolean {
  switch (decl.type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'any':
      return true;
  }
}

/** Checks required fields (absent or null, as PHP's isset) and types, recursing into declared object properties. */
function validateFields(fields: Record<string, BodyFieldDecl>, data: Record<string, unknown>, prefix: string): void {
  for (const [name, decl] of Object.entries(fields)) {
    const path = prefix + name;
    const value = data[name];
    if (value === undefined || value === null) {
      if (decl.required) throw new RestError(400, `Mandatory field "${path}" missing from request body.`);
      continue;
    }
    if (!fieldTypeOk(value, decl)) {
      throw paramFailure(path, value, 'badbodyfield', { type: decl.type }, `Invalid value for field "${path}" of the request body: expected ${describeType(decl.type)}.`);
    }
    if (decl.type === 'object' && decl.properties) validateFields(decl.properties, value as Record<string, unknown>, `${path}.`);
  }
}

/** PHP's limit on bracket nesting in form field names (max_input_nesting_level). */
const MAX_FORM_NESTING = 64;

/**
 * Stores a form field as PHP's $_POST does: `a[b][]=v` nests (an empty index appends), and
 * spaces and dots in the base name become underscores. Arrays are objects keyed by index.
 */
function setFormField(data: Record<string, unknown>, name: string, value: unknown): void {
  const trimmed = name.trimStart();
  // A `[` never closed is part of the name (as an underscore), not an index.
  const m = trimmed.includes(']') ? /^([^[]+)((?:\[[^\]]*\])*)/.exec(trimmed) : /^(.+)()$/.exec(trimmed.replace(/^\[.*/, ''));
  if (!m) return;
  const base = m[1]!.replace(/[ .[]/g, '_');
  const indexes = [...m[2]!.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!).slice(0, MAX_FORM_NESTING);
  let container = data;
  let key = base;
  for (const index of indexes) {
    const existing = container[key];
    const next = typeof existing === 'object' && existing !== null ? (existing as Record<string, unknown>) : {};
    container[key] = next;
    container = next;
    key =
      index !== ''
        ? index
        : String(
            Object.keys(next)
              .filter((k) => /^\d+$/.test(k))
              .reduce((max, k) => Math.max(max, Number(k) + 1), 0),
          );
  }
  container[key] = value;
}

/** Form fields are strings: integer and boolean fields are read as MediaWiki reads such parameters. */
function coerceFormFields(fields: Record<string, BodyFieldDecl>, form: Iterable<[string, string]>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [k, v] of form) {
    const decl = fields[k];
    if (decl?.type === 'integer' && /^[+-]?\d+$/.test(v)) data[k] = Number(v);
    else if (decl?.type === 'boolean') data[k] = BOOLEAN_TRUE_VALUES.includes(v.toLowerCase());
    else setFormField(data, k, v);
  }
  return data;
}

/** The media type of a Content-Type header, lowercased, without parameters. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/** The fields of a multipart/form-data body, in order (file parts are not fields, as in PHP's $_POST). */
function multipartFields(contentTypeHeader: string, raw: Buffer): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    const fields: [string, string][] = [];
    let parser: busboy.Busboy;
    const boundary = multipartBoundary(contentTypeHeader);
    try {
      if (!boundary) throw new Error('no boundary');
      parser = busboy({ headers: { 'content-type': `multipart/form-data; boundary="${boundary.replace(/["\\]/g, '\\$&')}"` }, limits: { fieldSize: Math.max(raw.length, 1) } });
    } catch (e) {
      // No boundary, or one busboy cannot use.
      reject(new RestError(400, `Bad multipart/form-data body: ${(e as Error).message}`, {}, { localized: false }));
      return;
    }
    parser.on('field', (name, value) => fields.push([name, value]));
    parser.on('file', (_name, stream) => stream.resume());
    parser.on('close', () => resolve(fields));
    parser.on('error', (e: Error) => reject(new RestError(400, `Bad multipart/form-data body: ${e.message}`, {}, { localized: false })));
    parser.end(canonicalMultipart(raw, boundary!));
  });
}

/**
 * Validates a request body against a route's schema (MediaWiki Validator::validateBody +
 * JsonBodyValidator): a missing Content-Type or one the route does not accept is a 415, bad JSON
 * or a non-object a 400, then required fields and field types.
 */
export async function validateBody(schema: BodySchema, contentTypeHeader: string | undefined, raw: Buffer): Promise<Record<string, unknown>> {
  const ct = mediaType(contentTypeHeader);
  if (ct === '') {
    throw new RestError(415, 'A Content-Type header must be supplied with a request payload.', { error: 'no-content-type' }, { localized: false });
  }
  const php = schema.phpArray;
  if (!(schema.contentTypes as readonly string[]).includes(ct)) {
    if (php) throw new RestError(415, php.unsupportedType, {}, { localized: false });
    throw new RestError(415, 'Unsupported Content-Type', { content_type: ct }, { localized: false });
  }
  let data: unknown;
  if (ct === FORM_CONTENT_TYPE) {
    data = coerceFormFields(schema.fields, new URLSearchParams(raw.toString('utf8')));
  } else if (ct === MULTIPART_CONTENT_TYPE) {
    data = coerceFormFields(schema.fields, await multipartFields(contentTypeHeader ?? '', raw));
  } else if (ct === JSON_CONTENT_TYPE) {
    try {
      data = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      if (php) throw new RestError(400, php.notAnArray, {}, { localized: false });
      throw new RestError(400, `Parsing request body as JSON failed: ${(e as Error).message}`);
    }
    if (php && Array.isArray(data)) data = { ...data };
    else if (php && (typeof data !== 'object' || data === null)) throw new RestError(400, php.notAnArray, {}, { localized: false });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new RestError(400, 'Bad request body, must be a JSON object.');
  }
  validateFields(schema.fields, data as Record<string, unknown>, '');
  return data as Record<string, unknown>;
}
