/*
 * MediaWiki's ApiContinuationManager for action=query: parses `continue`, decides which
 * submodules run, collects their continuation parameters and produces `continue` +
 * `batchcomplete` (or `query-continue` under rawcontinue).
 */
import { ApiUsageError } from '../types.js';

export const BAD_CONTINUE_TEXT = 'Invalid continue param. You should pass the original value returned by the previous query.';

export function badContinue(): ApiUsageError {
  return new ApiUsageError('badcontinue', BAD_CONTINUE_TEXT);
}

/**
 * A timestamp part of a continuation value (TS_MW, or ISO 8601 as older values were), as ISO 8601;
 * badcontinue when it is neither or cannot be a date of years 0000–9999 (ApiBase::
 * parseContinueParamOrDie). Fields out of range roll over as PHP's DateTime does (2020-02-31 is
 * 2020-03-02): what the databases are given is always a real date.
 */
export function continueTimestampIso(part: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})T?(\d{2}):?(\d{2}):?(\d{2})(?:\.\d+)?Z?$/.exec(part);
  if (!m) throw badContinue();
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  const ms = date.getTime();
  if (Number.isNaN(ms) || date.getUTCFullYear() < 0 || date.getUTCFullYear() > 9999) throw badContinue();
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A continuation value split on "|" with MediaWiki's dieContinueUsageIf checks of integer parts. */
export function continueParts(value: string, count: number, integerParts: number[]): string[] {
  const parts = value.split('|');
  if (parts.length !== count) throw badContinue();
  for (const i of integerParts) if (String(parseInt(parts[i]!, 10)) !== parts[i]) throw badContinue();
  return parts;
}

/** An integer part of a continuation value (PHP's intval round trip, within a 64-bit row id); badcontinue otherwise. */
export function continueInt(part: string): number {
  if (!/^-?\d{1,16}$/.test(part)) throw badContinue();
  const n = Number(part);
  if (!Number.isSafeInteger(n)) throw badContinue();
  return n;
}

/** A continuation value as the module set it (setContinueEnumParameter keeps ints as ints). */
export type ContinueValue = string | number;

export class QueryContinuation {
  /** `-` before `||`: the page set is exhausted, so modules that work on it are skipped. */
  readonly generatorDone: boolean;
  private readonly skipped = new Set<string>();
  /**
   * Continuation parameters by module name, then by prefixed parameter name. Numbers stay
   * numbers: MediaWiki prints `"sroffset":10`, not `"10"`.
   */
  private readonly data = new Map<string, Record<string, ContinueValue>>();
  /** Where the generator continues (e.g. gapcontinue) once this batch of pages is done. */
  private generatorNext: Record<string, ContinueValue> = {};
  /** Where the generator started this batch: repeated while prop modules continue within it. */
  private generatorCurrent: Record<string, ContinueValue> = {};

  /**
   * @param continueParam the request's `continue` value ("" or undefined when absent)
   * @param allModules names of the requested prop, list and meta modules, in run order
   * @param pageSetModules the prop modules (they work on the page set)
   */
  constructor(
    continueParam: string | undefined,
    private readonly allModules: readonly string[],
    private readonly pageSetModules: readonly string[],
  ) {
    let generatorDone = false;
    if (continueParam) {
      const parts = continueParam.split('||');
      if (parts.length !== 2) throw badContinue();
      generatorDone = parts[0] === '-';
      for (const name of (parts[1] ?? '').split('|')) this.skipped.add(name);
      if (generatorDone) for (const name of pageSetModules) this.skipped.add(name);
    }
    this.generatorDone = generatorDone;
  }

  shouldRun(moduleName: string): boolean {
    return !this.skipped.has(moduleName);
  }

  /** setContinueEnumParameter: `paramName` is already prefixed (e.g. "rvcontinue"). */
  addContinueParam(moduleName: string, paramName: string, value: string | number | readonly string[]): void {
    const v = Array.isArray(value) ? value.join('|') : typeof value === 'number' ? value : String(value);
    const entry = this.data.get(moduleName) ?? {};
    entry[paramName] = v;
    this.data.set(moduleName, entry);
  }

  /** ApiContinuationManager::addGeneratorContinueParam: the generator's next batch. */
  addGeneratorContinueParam(paramName: string, value: ContinueValue): void {
    this.generatorNext[paramName] = value;
  }

  /** ApiContinuationManager::addGeneratorNonContinueParam: the generator's current batch. */
  addGeneratorNonContinueParam(paramName: string, value: ContinueValue): void {
    this.generatorCurrent[paramName] = value;
  }

  /** `query-continue` under rawcontinue: `{ module: { param: value } }`; empty when done. */
  rawContinuation(): Record<string, Record<string, ContinueValue>> {
    return Object.fromEntries(this.data);
  }

  /** The new-style `continue` object (undefined when everything is done) and batchcomplete (ApiContinuationManager::getContinuation). */
  continuation(): { continue: Record<string, ContinueValue> | undefined; batchComplete: boolean } {
    let finished = this.allModules.filter((m) => !this.data.has(m));
    const out: Record<string, ContinueValue> = {};
    const add = (kvp: Record<string, ContinueValue>) => {
      for (const [k, v] of Object.entries(kvp)) if (!(k in out)) out[k] = v;
    };
    for (const [name, kvp] of this.data) if (!this.pageSetModules.includes(name)) add(kvp);
    const pageSetContinues = [...this.data.keys()].some((m) => this.pageSetModules.includes(m));
    let generatorKeys: string;
    let batchComplete = false;
    if (pageSetContinues) {
      // Prop modules are unfinished: the same generator batch is requested again.
      for (const [name, kvp] of this.data) if (this.pageSetModules.includes(name)) add(kvp);
      const generatorParams = { ...this.generatorCurrent, ...this.generatorNext, ...this.generatorCurrent };
      add(generatorParams);
      generatorKeys = Object.keys(generatorParams).join('|');
    } else if (Object.keys(this.generatorNext).length) {
      // This batch is done but the generator is not: its next batch restarts the prop modules.
      add(this.generatorNext);
      finished = finished.filter((m) => !this.pageSetModules.includes(m));
      generatorKeys = Object.keys(this.generatorNext).join('|');
      batchComplete = true;
    } else {
      generatorKeys = '-';
      batchComplete = true;
    }
    if (Object.keys(out).length === 0 && generatorKeys === '-') return { continue: undefined, batchComplete: true };
    out.continue = `${generatorKeys}||${finished.join('|')}`;
    return { continue: out, batchComplete };
  }
}
