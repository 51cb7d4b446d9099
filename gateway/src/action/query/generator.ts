/*
 * Generators (MediaWiki's ApiQueryGeneratorBase): a list or prop module that, named by
 * `generator=`, produces the page set instead of its own result. Its parameters carry a `g`
 * before its prefix (gapfrom, gaplimit…) and its continuation goes to the generator part of
 * `continue`.
 */
import type { ActionContext, ModuleDecl } from '../types.js';
import type { ParamDecls, ParamsOf, TypedModuleDecl } from '../define.js';
import type { QueryRun } from './run.js';

/** A generator that yields revisions (prop=revisions): its page set is built as `revids` would be. */
export interface GeneratedRevisions {
  revIds: number[];
}

/**
 * A generator that yields titles which need not exist (prop=links|templates|categories|images:
 * ApiPageSet::populateFromTitles): missing ones become missing pages of the page set.
 */
export interface GeneratedTitles {
  titles: string[];
}

export interface GeneratorModule extends ModuleDecl {
  /**
   * Runs the module in generator mode on the request's page set (`run.pageSet`: what titles,
   * pageids or revids name): the ids of the pages it yields, in its order, or of revisions.
   */
  generate(ctx: ActionContext, run: QueryRun): Promise<number[] | GeneratedRevisions | GeneratedTitles>;
}

/** A generator declaration with its parameter types inferred for `execute` and `generate` (action/define.ts). */
export interface TypedGeneratorDecl<P extends ParamDecls> extends TypedModuleDecl<P> {
  generate(ctx: ActionContext<ParamsOf<P>>, run: QueryRun): Promise<number[] | GeneratedRevisions | GeneratedTitles>;
}

/** defineModule for generators. */
export function defineGenerator<const P extends ParamDecls>(decl: TypedGeneratorDecl<P>): GeneratorModule {
  // The validator produces exactly ParamsOf<P> from P, so the erased context is the typed one.
  return decl as unknown as GeneratorModule;
}

export function isGenerator(m: ModuleDecl): m is GeneratorModule {
  return m.flags.generator === true && typeof (m as Partial<GeneratorModule>).generate === 'function';
}

/** The module's declaration as a generator sees its parameters (prefix `g` + prefix). */
export function asGeneratorParams(m: ModuleDecl): ModuleDecl {
  return { ...m, prefix: `g${m.prefix}` };
}
