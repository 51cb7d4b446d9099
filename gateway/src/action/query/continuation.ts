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

export class QueryContinuation {
  /** `-` before `||`: the page set is exhausted, so modules that work on it are skipped. */
  readonly generatorDone: boolean;
  private readonly skipped = new Set<string>();
  /** Continuation parameters by module name, then by prefixed parameter name. */
  private readonly data = new Map<string, Record<string, string>>();

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
    const v = Array.isArray(value) ? value.join('|') : String(value);
    const entry = this.data.get(moduleName) ?? {};
    entry[paramName] = v;
    this.data.set(moduleName, entry);
  }

  /** `query-continue` under rawcontinue: `{ module: { param: value } }`; empty when done. */
  rawContinuation(): Record<string, Record<string, string>> {
    return Object.fromEntries(this.data);
  }

  /** The new-style `continue` object (undefined when everything is done) and batchcomplete. */
  continuation(): { continue: Record<string, string> | undefined; batchComplete: boolean } {
    const finished = this.allModules.filter((m) => !this.data.has(m));
    const out: Record<string, string> = {};
    for (const [name, kvp] of this.data) if (!this.pageSetModules.includes(name)) Object.assign(out, { ...kvp, ...out });
    const pageSetContinues = [...this.data.keys()].some((m) => this.pageSetModules.includes(m));
    let generatorKeys = '-';
    if (pageSetContinues) {
      for (const [name, kvp] of this.data) if (this.pageSetModules.includes(name)) Object.assign(out, { ...kvp, ...out });
      // No generator yet: there are no generator parameters to carry, so the key list is empty.
      generatorKeys = '';
    }
    if (Object.keys(out).length === 0 && generatorKeys === '-') return { continue: undefined, batchComplete: true };
    out.continue = `${generatorKeys}||${finished.join('|')}`;
    return { continue: out, batchComplete: !pageSetContinues };
  }
}
