/* What action=query hands each of its submodules, and the context they run in. */
import type { ActionContext, ModuleDecl, Params, ResultObject } from '../types.js';
import type { QueryContinuation } from './continuation.js';
import type { PageSet } from './pageset.js';

export interface QueryRun {
  pageSet: PageSet;
  /** Page entries of `query.pages` by (fake) page id; prop modules add fields to them. */
  pages: Map<number, ResultObject>;
  /** The `query` object of the result; meta/list modules add their key to it. */
  data: ResultObject;
  continuation: QueryContinuation;
  /** redirects=1 was given (and applies: not with revids). */
  resolveRedirects: boolean;
  /**
   * ApiPageSet::setGeneratorData: fields a generator gives each page it yields (by page id),
   * added to the page's entry after its id, namespace and title (search's `index`).
   */
  generatorData?: Map<number, ResultObject>;
}

/** The module path MediaWiki uses for warnings and errors, e.g. "query+revisions". */
export function modulePath(sub: ModuleDecl): string {
  return `query+${sub.name}`;
}

/** A submodule's context: the query's context with the submodule and its validated parameters. */
export function subContext(ctx: ActionContext, module: ModuleDecl, params: Params): ActionContext {
  // Everything else is the query's own context (methods bound to it).
  return new Proxy(ctx, {
    get(target, prop) {
      if (prop === 'module') return module;
      if (prop === 'params') return params;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The QueryRun a submodule was given; a submodule called outside action=query is a programming error. */
export function queryRunOf(run: unknown): QueryRun {
  if (!run || typeof run !== 'object' || !('continuation' in run)) throw new Error('query submodule executed without a QueryRun');
  return run as QueryRun;
}
