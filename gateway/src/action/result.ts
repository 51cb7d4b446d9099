/*
 * MediaWiki's ApiResult data model and transformations (ApiResult::applyTransformations).
 *
 * Modules build plain JS values (objects, arrays, Maps for ordered maps with numeric keys) tagged
 * with META keys. Before output the value is converted to PHP's model — an ordered map whose
 * keys are ints or strings — because the transformations (formatversion 1 "BC", array/assoc type
 * detection, kvp) and the serializers (JSON, XML, PHP) are defined on that model.
 */
import { META } from './types.js';

export type PhpKey = string | number;
export type PhpValue = null | boolean | number | string | PhpArray;

/** A PHP array: ordered entries. `asObject` marks an assoc array that JSON prints as an object. */
export class PhpArray {
  constructor(
    public entries: [PhpKey, PhpValue][] = [],
    public asObject = false,
  ) {}

  get(key: PhpKey): PhpValue | undefined {
    for (const [k, v] of this.entries) if (k === key) return v;
    return undefined;
  }

  has(key: PhpKey): boolean {
    return this.entries.some(([k]) => k === key);
  }

  set(key: PhpKey, value: PhpValue): void {
    const e = this.entries.find(([k]) => k === key);
    if (e) e[1] = value;
    else this.entries.push([key, value]);
  }

  delete(key: PhpKey): void {
    this.entries = this.entries.filter(([k]) => k !== key);
  }
}

const PHP_INT_KEY = /^(0|-?[1-9][0-9]*)$/;

/** PHP turns decimal integer strings used as array keys into int keys. */
export function phpKey(key: string | number): PhpKey {
  if (typeof key === 'number') return key;
  if (PHP_INT_KEY.test(key)) {
    const n = Number(key);
    if (Number.isSafeInteger(n)) return n;
  }
  return key;
}

export function isMetadataKey(key: PhpKey): boolean {
  return typeof key === 'string' && key.startsWith('_');
}

/** Converts a module's JS value to the PHP model; undefined values are dropped. */
export function toPhp(value: unknown): PhpValue | undefined {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof PhpArray) return value;
  const out = new PhpArray();
  const add = (k: string | number, v: unknown) => {
    const pv = toPhp(v);
    if (pv !== undefined) out.set(phpKey(k), pv);
  };
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      add(i, v);
    });
    // Metadata set on the array object itself (setIndexedTagName etc.).
    for (const k of Object.keys(value)) if (k.startsWith('_')) add(k, (value as unknown as Record<string, unknown>)[k]);
  } else if (value instanceof Map) {
    for (const [k, v] of value) add(typeof k === 'number' ? k : String(k), v);
    for (const k of Object.keys(value)) if (k.startsWith('_')) add(k, (value as unknown as Record<string, unknown>)[k]);
  } else {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(k, v);
  }
  return out;
}

export interface Transforms {
  /** formatversion 1 transformations; XML uses them with nobool/noStar/nosub set. */
  bc?: { nobool?: boolean; noStar?: boolean; nosub?: boolean };
  /** Array/assoc type transformations; absent = keep the raw structure (XML). */
  types?: { assocAsObject?: boolean; armorKVP?: string };
  strip: 'all' | 'none' | 'bc';
  /** Hook to adjust data/metadata before the transformations (ApiFormatXml's BCassoc → assoc). */
  custom?: (data: PhpArray, metadata: Map<string, PhpValue>) => void;
}

function stringList(v: PhpValue | undefined): string[] {
  if (v instanceof PhpArray) return v.entries.map(([, x]) => String(x));
  return [];
}

function stripMetadataNonRecursive(data: PhpArray, metadata: Map<string, PhpValue>): PhpArray {
  const preserve = stringList(data.get(META.PRESERVE_KEYS));
  const out = new PhpArray([], data.asObject);
  for (const [k, v] of data.entries) {
    if (isMetadataKey(k) && !preserve.includes(k as string)) metadata.set(k as string, v);
    else out.entries.push([k, v]);
  }
  return out;
}

function isNumericKey(k: PhpKey): boolean {
  return typeof k === 'number' || /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(k);
}

/** PHP >= 8.2 ordering of mixed int/string keys (ApiResult's uksort). */
function compareKeys(a: PhpKey, b: PhpKey): number {
  if (isNumericKey(a) !== isNumericKey(b)) return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  if (isNumericKey(a)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

export function applyTransformations(dataIn: PhpArray, t: Transforms): PhpArray {
  const metadata = new Map<string, PhpValue>();
  const data = stripMetadataNonRecursive(dataIn, metadata);
  t.custom?.(data, metadata);
  let armorKVP = t.types?.armorKVP;

  let boolKeys: Set<string> | null = null;
  if (t.bc) {
    if (!t.bc.nobool) boolKeys = new Set(stringList(metadata.get(META.BC_BOOLS)));
    const contentKey = metadata.get(META.CONTENT);
    if (!t.bc.noStar && typeof contentKey === 'string' && contentKey !== '*') {
      const v = data.get(contentKey);
      data.delete(contentKey);
      if (v !== undefined) data.set('*', v);
      metadata.set(META.CONTENT, '*');
    }
    if (!t.bc.nosub) {
      for (const k of stringList(metadata.get(META.BC_SUBELEMENTS))) {
        const v = data.get(phpKey(k));
        if (v !== undefined && v !== null) {
          data.set(
            phpKey(k),
            new PhpArray([
              ['*', v],
              [META.CONTENT, '*'],
              [META.TYPE, 'assoc'],
            ]),
          );
        }
      }
    }
    const type = metadata.get(META.TYPE);
    if (type === 'BCarray' || type === 'BCassoc') metadata.set(META.TYPE, 'default');
    else if (type === 'BCkvp') armorKVP = String(metadata.get(META.KVP_KEY_NAME) ?? '');
  }

  let defaultType: 'array' | 'assoc' = 'array';
  let maxKey = -1;
  const entries: [PhpKey, PhpValue][] = [];
  for (const [k, v0] of data.entries) {
    let v = v0 instanceof PhpArray ? applyTransformations(v0, t) : v0;
    if (boolKeys && typeof v === 'boolean' && !boolKeys.has(String(k))) {
      if (!v) continue;
      v = '';
    }
    if (typeof k === 'string') defaultType = 'assoc';
    else if (k > maxKey) maxKey = k;
    entries.push([k, v]);
  }

  let keep: [string, PhpValue][];
  if (t.strip === 'none') keep = [...metadata];
  else if (t.strip === 'bc') keep = [...metadata].filter(([k]) => k === META.INDEXED_TAG_NAME || k === META.SUBELEMENTS);
  else keep = [];
  const withMeta = (list: [PhpKey, PhpValue][], asObject: boolean, type?: string) => {
    if (type && t.strip === 'none') keep = [...keep.filter(([k]) => k !== META.TYPE), [META.TYPE, type]];
    return new PhpArray([...list, ...keep], asObject);
  };

  if (!t.types) return withMeta(entries, false);

  if (defaultType === 'array' && maxKey !== entries.length - 1) defaultType = 'assoc';
  let type: string = defaultType;
  const metaType = metadata.get(META.TYPE);
  if (typeof metaType === 'string' && metaType !== 'default') type = metaType;
  if ((type === 'kvp' || type === 'BCkvp') && !armorKVP) type = 'assoc';
  else if (type === 'BCarray') type = 'array';
  else if (type === 'BCassoc') type = 'assoc';

  switch (type) {
    case 'assoc':
      return withMeta(entries, !!t.types.assocAsObject, 'assoc');
    case 'array': {
      const sorted = [...entries].sort((a, b) => compareKeys(a[0], b[0]));
      return withMeta(
        sorted.map(([, v], i) => [i, v]),
        false,
        'array',
      );
    }
    default: {
      // kvp / BCkvp: {a: 1} becomes [{name: "a", value: 1}] (fv1: "*" instead of "value").
      const keyName = String(metadata.get(META.KVP_KEY_NAME) ?? armorKVP);
      const valKey = t.bc ? '*' : 'value';
      const merge = !!metadata.get(META.KVP_MERGE);
      const assocAsObject = !!t.types.assocAsObject;
      const list: [PhpKey, PhpValue][] = entries.map(([k, v], i) => {
        let item: PhpArray;
        if (merge && v instanceof PhpArray && isAssoc(v)) {
          item = new PhpArray([...v.entries], assocAsObject);
          if (!item.has(keyName)) item.entries.push([keyName, k]);
          if (t.strip === 'none') item.set(META.PRESERVE_KEYS, new PhpArray([[0, keyName]]));
        } else {
          item = new PhpArray(
            [
              [keyName, k],
              [valKey, v],
            ],
            assocAsObject,
          );
          if (t.strip === 'none') {
            item.entries.push([META.PRESERVE_KEYS, new PhpArray([[0, keyName]])], [META.CONTENT, valKey], [META.TYPE, 'assoc']);
          }
        }
        return [i, item];
      });
      return withMeta(list, false, 'array');
    }
  }
}

function isAssoc(v: PhpArray): boolean {
  if (v.asObject) return true;
  const type = v.get(META.TYPE);
  if (typeof type === 'string') return type === 'assoc';
  const keys = v.entries.map(([k]) => k);
  if (!keys.every((k) => typeof k === 'number')) return true;
  const sorted = (keys as number[]).sort((a, b) => a - b);
  return !sorted.every((k, i) => k === i);
}

/**
 * Converts to the PHP model and applies the transformations of one output format. The top level
 * is ApiResult's data, which ApiResult::reset() types 'assoc': an empty result prints as `{}`
 * (action=logout), while an empty value inside it stays an array unless typed (`"search":[]`).
 */
export function transformResult(result: unknown, t: Transforms): PhpArray {
  const php = toPhp(result);
  const top = php instanceof PhpArray ? php : new PhpArray();
  const typed = top.has(META.TYPE) ? top : new PhpArray([...top.entries, [META.TYPE, 'assoc']], top.asObject);
  return applyTransformations(typed, t);
}
