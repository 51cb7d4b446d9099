/*
 * Typed module declarations. `defineModule` takes a module declaration whose `params` are kept
 * with their literal types (a `const` type parameter) and gives `execute` a context whose
 * `params` have the types the validator (action/params.ts) produces for them:
 *
 *   title: { type: 'string' }                          → string | undefined
 *   title: { type: 'string', required: true }          → string
 *   limit: { type: 'limit', default: 10 }              → number
 *   prop:  { type: ['ids', 'title'], multi: true }     → ('ids' | 'title')[] | undefined
 *   ns:    { type: 'namespace', multi: true }          → number[] | undefined
 *   minor: { type: 'boolean' }                         → boolean (present means true)
 *
 * The declaration stays the one source of help and paraminfo; the returned ModuleDecl is the
 * erased form the registry and the pipeline hold.
 */
import type { ActionContext, ModuleDecl, ParamDecl, ParamType, ReadModeRequest } from './types.js';

export type ParamDecls = Record<string, ParamDecl>;

/** One value of a parameter: an enum's literals, a number for integer/limit/namespace, else a string. */
type ElementOf<T extends ParamType> = T extends readonly (infer V extends string)[] ? V : T extends 'integer' | 'limit' | 'namespace' ? number : string;

/** The validated value of a parameter that is present. */
export type ParamValueOf<D extends ParamDecl> = D['type'] extends 'boolean'
  ? boolean
  : D['type'] extends 'upload'
    ? undefined // files are read from ActionContext.files
    : D extends { multi: true }
      ? ElementOf<D['type']>[]
      : ElementOf<D['type']>;

/** Booleans are always present (false when absent); required parameters and ones with a default too. */
type AlwaysPresent<D extends ParamDecl> = D['type'] extends 'boolean' ? true : D extends { required: true } ? true : D extends { default: string | number | boolean } ? true : false;

/** One parameter's validated value; distributes over alternative declarations (a factory's `a ? declA : declB`). */
type ValueFor<D> = D extends ParamDecl ? (AlwaysPresent<D> extends true ? ParamValueOf<D> : ParamValueOf<D> | undefined) : never;

/** The validated parameters of a declaration, by unprefixed name (a conditionally declared one stays optional). */
export type ParamsOf<P extends ParamDecls> = {
  -readonly [K in keyof P]: ValueFor<P[K]>;
};

/** The context `execute` gets for a parameter declaration (helpers of one module take it). */
export type ContextOf<P extends ParamDecls> = ActionContext<ParamsOf<P>>;

/** A module declaration with its parameter types kept (see defineModule). */
export interface TypedModuleDecl<P extends ParamDecls> extends Omit<ModuleDecl, 'params' | 'execute' | 'isReadMode'> {
  params: P;
  isReadMode?(request: ReadModeRequest<ParamsOf<P>>): boolean;
  execute(ctx: ActionContext<ParamsOf<P>>, query?: unknown): Promise<void>;
}

/** Declares a module with its parameter types inferred for `execute` (see the top of this file). */
export function defineModule<const P extends ParamDecls>(decl: TypedModuleDecl<P>): ModuleDecl {
  // The validator produces exactly ParamsOf<P> from P, so the erased context is the typed one.
  return decl as unknown as ModuleDecl;
}

/**
 * Keeps the literal types of a parameter declaration that is built apart from its module (shared
 * parameters, or ones a module's helpers need the type of: `ContextOf<typeof params>`).
 */
export function defineParams<const P extends ParamDecls>(params: P): P {
  return params;
}

/** One shared parameter declaration with its literal type kept (e.g. a limit every list repeats). */
export function defineParam<const D extends ParamDecl>(decl: D): D {
  return decl;
}
