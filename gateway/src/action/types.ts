/*
 * The declaration contract of the action API (MediaWiki's ApiBase, in TypeScript). Each module is
 * one file exporting a ModuleDecl; the pipeline (action/main.ts) validates parameters from these
 * declarations, checks flags, runs `execute`, and formats the result. action=help and
 * action=paraminfo are generated from the same declarations.
 */
import type { Caller, GatewayDeps } from '../context.js';
import type { UserType } from '../validation/typedefs.js';

export type TokenType = 'csrf' | 'watch' | 'patrol' | 'rollback' | 'userrights' | 'login' | 'createaccount';
export const TOKEN_TYPES: readonly TokenType[] = ['createaccount', 'csrf', 'login', 'patrol', 'rollback', 'userrights', 'watch'];

/** ParamValidator types of MediaWiki 1.39; an array is an enum of allowed values. */
export type ParamType = 'string' | 'text' | 'integer' | 'limit' | 'boolean' | 'timestamp' | 'namespace' | 'title' | 'user' | 'password' | 'upload' | 'expiry' | 'raw' | readonly string[];

export interface ParamDecl {
  type: ParamType;
  /** Default as MediaWiki shows it in paraminfo (string form for multi: "a|b"). */
  default?: string | number | boolean;
  required?: boolean;
  /** Multi-value: `a|b|c` or `\x1fa\x1fb` (when a value contains `|`). */
  multi?: boolean;
  /** Multi-value limits (ISMULTI_LIMIT1/2): max values for normal users / apihighlimits users. */
  multiLimit1?: number;
  multiLimit2?: number;
  /** Multi-value: keep repeated values (PARAM_ALLOW_DUPLICATES); by default they are dropped. */
  allowDuplicates?: boolean;
  /** For multi enums: `*` means all values (always so for multi-value namespaces: NamespaceDef forces it). */
  allowAll?: boolean;
  /** For `namespace`: ids beyond the wiki's non-negative ones, e.g. [-2, -1] (NamespaceDef::PARAM_EXTRA_NAMESPACES). */
  extraNamespaces?: readonly number[];
  /** integer/limit bounds; `limit` accepts "max" (max, or highMax with apihighlimits). */
  min?: number;
  max?: number;
  highMax?: number;
  /** Out-of-range integers are clamped with a warning unless enforceRange. */
  enforceRange?: boolean;
  /** Never logged or echoed (passwords, tokens). */
  sensitive?: boolean;
  /**
   * Must arrive in the POST body, never in the query string (ApiBase::requirePostedParameters):
   * found in the query string it is refused with `mustpostparams` right before the module runs.
   * Not implied by `sensitive` (action=checktoken takes its token from a GET); the `token` of a
   * module with `flags.needsToken` gets it automatically and is checked with the token.
   */
  mustBePosted?: boolean;
  /**
   * For `expiry` (ExpiryDef::PARAM_MAX with PARAM_USE_MAX): the longest finite expiry, as a
   * relative duration ("1 year"); a later one is cut to it with a warning.
   */
  maxExpiry?: string;
  /** For `user`: the kinds of value accepted (UserDef::PARAM_ALLOWED_USER_TYPES); default name, ip, cidr, interwiki. */
  userTypes?: readonly UserType[];
  deprecated?: boolean;
  /** For `title`/`user`: must exist etc. are checked by modules, not here. */
  help: string;
  /** Values (of an enum) whose use is deprecated. */
  deprecatedValues?: readonly string[];
  /**
   * For type 'submodule'-like params (prop, list, meta, action): the group(s) of the named
   * modules (`generator` names modules of both prop and list).
   */
  submoduleGroup?: ModuleGroup | readonly ModuleGroup[];
  /**
   * For an enum: the error of a value outside it, when the module answers that itself rather
   * than the validator's badvalue (ApiPageSet's `badgenerator`).
   */
  unknownValue?(value: string): { code: string; key: string; params: string[] };
}

/** UserDef's kinds of user parameter values (shared with the REST API's validator). */
export type { UserType };
export const DEFAULT_USER_TYPES: readonly UserType[] = ['name', 'ip', 'cidr', 'interwiki'];

/** ApiMain::setCacheMode: who may cache the response (see ActionContext.setCacheMode). */
export type CacheMode = 'private' | 'public' | 'anon-public-user-private';

export type ModuleGroup = 'action' | 'prop' | 'list' | 'meta' | 'format';

export interface ModuleFlags {
  /** Must be POSTed (MediaWiki mustBePosted): GET answers `mustbeposted`. */
  mustBePosted?: boolean;
  /** Token type required in the `token` parameter; implies the param and `badtoken`/`notoken`. */
  needsToken?: TokenType;
  /** Writes: refused when the wiki is read-only; counts for rate limits. */
  writeMode?: boolean;
  /** False for modules anyone may call even without the `read` right (login, help, tokens…). */
  readRights?: boolean;
  internal?: boolean;
  deprecated?: boolean;
  /** Generators (list/prop modules usable as generator=…). */
  generator?: boolean;
}

/**
 * A validated value: string for string-like types, number for integer/limit/namespace, boolean,
 * arrays for multi-value params; timestamps are 14-digit TS_MW strings ("20240131235959") as
 * MediaWiki's ParamValidator returns them.
 */
export type ParamValue = string | number | boolean | string[] | number[] | undefined;

/** Validated parameters by unprefixed name (e.g. `prop`, not `rvprop`); absent optional ones are undefined. */
export type Params = Record<string, ParamValue>;

/** A structured API error; the pipeline renders it per errorformat/formatversion. */
export interface ApiMessage {
  code: string;
  /** English plain text (MediaWiki's message in `uselang=en`). */
  text: string;
  /** Extra fields MediaWiki puts next to code/info (e.g. maxlag's `lag`, `type`, `host`). */
  data?: Record<string, unknown>;
  /** The message with its markup (errorformat=wikitext); defaults to `text`. */
  wikitext?: string;
  /** The message as HTML (errorformat=html); defaults to `text` HTML-escaped. */
  html?: string;
  /** Message key and parameters (errorformat=raw); default key `apierror-<code>`, no params. */
  key?: string;
  params?: (string | number)[];
  /**
   * The parameters as errorformat=raw shows them when the message has typed parameters (a
   * ParamValidator message: `{plaintext}`, `{num}`, `{list, type}`); defaults to `params`.
   */
  rawParams?: unknown[];
}

/** What a module's `execute` gets; `P` is its validated parameters (typed by defineModule). */
export interface ActionContext<P extends Params = Params> {
  readonly module: ModuleDecl;
  readonly params: P;
  readonly caller: Caller;
  readonly deps: GatewayDeps;
  readonly formatVersion: 1 | 2;
  readonly method: 'GET' | 'POST';
  /** The caller has apihighlimits (bots, sysops): use highMax for limits. */
  readonly highLimits: boolean;
  /** Raw request parameters (for modules that read dynamic names, e.g. query submodules). */
  readonly raw: ReadonlyMap<string, string>;
  /** A request header (lower-case name), as WebRequest::getHeader; absent in contexts without a request. */
  header?(name: string): string | undefined;
  /** A POST body that is neither a form nor multipart, with its content type (action=cspreport). */
  readonly otherBody?: { contentType: string; data: Buffer };
  /** Uploaded files from multipart bodies, by parameter name. */
  readonly files: ReadonlyMap<string, { filename: string; contentType: string; data: Buffer }>;
  /** Top-level result object: modules set `result[module.name] = …` (or query data). */
  readonly result: Record<string, unknown>;
  /**
   * Adds a warning for a module path ("main", "query", "query+revisions"); a bare submodule name
   * ("revisions") is resolved to its path.
   */
  addWarning(moduleName: string, msg: ApiMessage): void;
  /** Marks a parameter name as used (so it is not reported as unrecognized). */
  markUsed(name: string): void;
  /** Validates the parameters of a submodule (query prop/list/meta) against its declaration. */
  validateSubmodule(sub: ModuleDecl): Params;
  /**
   * Sends `body` as is instead of the formatted result (MediaWiki's custom ApiFormatRaw printer,
   * used by action=help); errors still use the requested format.
   */
  setRawOutput(output: { contentType: string; filename: string; body: string }): void;
  /**
   * The warnings so far as ApiHelp writes them above a raw HTML page: an HTML comment of their
   * JSON (`<!-- API warnings and errors: … -->` and a line break), or "" when there are none.
   */
  warningsComment(): string;
  /** The registered modules (help and paraminfo read it; query resolves its submodules with it). */
  readonly registry: ModuleLookup;
  /**
   * ApiBase::requirePostedParameters for parameters read outside the declarations (the
   * AuthManager fields of clientlogin/createaccount): fails with `mustpostparams` naming those
   * of `names` (full names, as sent) that came in the query string. Declared parameters use
   * ParamDecl.mustBePosted instead.
   */
  requirePostedParameters(names: readonly string[]): void;
  /**
   * ApiMain::setCacheMode. `private` (the default): only the client may cache. `public`: shared
   * caches may too, for every caller — downgraded to `anon-public-user-private` when the
   * response depends on the user's language (uselang=user), and ignored on a wiki whose
   * anonymous users cannot read. `anon-public-user-private`: public for callers without a
   * session, private (with `Vary: Cookie`) for the others. Errors are always private.
   */
  setCacheMode(mode: CacheMode): void;
  /** ApiMain::setCacheMaxAge: max-age and s-maxage of the response, in seconds (overrides the maxage/smaxage parameters). */
  setCacheMaxAge(seconds: number): void;
}

/** Read access to the module registry (action/registry.ts). */
export interface ModuleLookup {
  /** Modules of a group in registration order. */
  modules(group: ModuleGroup): readonly ModuleDecl[];
  get(group: ModuleGroup, name: string): ModuleDecl | undefined;
  /** MediaWiki module path: "query", "query+revisions", "json". */
  pathOf(module: ModuleDecl): string;
  /** The module at a path ("main" is the main module), or undefined. */
  byPath(path: string): ModuleDecl | undefined;
  /** The main module (action=…, format=… and the other common parameters). */
  readonly main: ModuleDecl;
}

/** What a module's isReadMode may look at: which parameters were sent, and its validated ones. */
export interface ReadModeRequest<P extends Params = Params> {
  has(name: string): boolean;
  params: P;
  registry: ModuleLookup;
}

export interface ModuleDecl {
  name: string;
  group: ModuleGroup;
  /** Parameter prefix (e.g. "rv" for prop=revisions); "" for action modules. */
  prefix: string;
  /** One-line description for help/paraminfo. */
  summary: string;
  params: Record<string, ParamDecl>;
  flags: ModuleFlags;
  /** Example queries (without api.php?) and what they do, for help/paraminfo. */
  examples?: Record<string, string>;
  /**
   * Whether this request needs the `read` right (ApiBase::isReadMode), when that depends on the
   * request (action=query with only meta=tokens does not); default: `flags.readRights !== false`.
   */
  isReadMode?(request: ReadModeRequest): boolean;
  /** Runs the module. Action modules write into ctx.result; query submodules get a QueryRun. */
  execute(ctx: ActionContext, query?: unknown): Promise<void>;
}

/**
 * Thrown by modules and the pipeline; rendered in the API's own error format.
 *
 * A service error (kit's ServiceError) that reaches the pipeline becomes an ApiUsageError with
 * the service's MediaWiki code and message. Its `data` is the service's own business (retry
 * delays, which side of a comparison failed, reason codes…) and is never shown to clients:
 * only the fields a service puts under `data.api` are, next to code and info — the convention
 * for data MediaWiki itself reports with an error (e.g. edit-invalidredirect's `redirects`).
 */
export class ApiUsageError extends Error {
  constructor(
    readonly code: string,
    readonly info: string,
    readonly data: Record<string, unknown> = {},
    readonly httpStatus = 200,
    readonly headers: Record<string, string> = {},
  ) {
    super(info);
    this.name = 'ApiUsageError';
  }

  /** Module path reported with the error ("main", "query+revisions"); the pipeline fills it when unset. */
  modulePath?: string;
}

/*
 * Result metadata (MediaWiki ApiResult META_* keys). Modules build fv2-shaped plain values and
 * tag them; the pipeline applies the formatversion 1 ("BC") or 2 transformations and strips
 * every key starting with "_" before output.
 */
export const META = {
  /** XML element name for list items. */
  INDEXED_TAG_NAME: '_element',
  SUBELEMENTS: '_subelements',
  PRESERVE_KEYS: '_preservekeys',
  /** Name of the key holding the "content" value: fv1 renames it to `*`, XML makes it text. */
  CONTENT: '_content',
  /** 'array' | 'assoc' | 'kvp' | 'BCarray' | 'BCassoc' | 'BCkvp' */
  TYPE: '_type',
  KVP_KEY_NAME: '_kvpkeyname',
  KVP_MERGE: '_kvpmerge',
  /**
   * Keys whose booleans stay real booleans in formatversion 1. Every other boolean is
   * transformed there: true becomes "" and false is dropped (MediaWiki's META_BC_BOOLS).
   */
  BC_BOOLS: '_BC_bools',
  BC_SUBELEMENTS: '_BC_subelements',
} as const;

export type ResultObject = Record<string, unknown>;

export function setContentValue(obj: ResultObject, key: string, value: unknown): ResultObject {
  obj[key] = value;
  obj[META.CONTENT] = key;
  return obj;
}

export function setIndexedTagName<T extends object>(arr: T, tag: string): T {
  (arr as Record<string, unknown>)[META.INDEXED_TAG_NAME] = tag;
  return arr;
}

export function setArrayType<T extends object>(obj: T, type: 'array' | 'assoc' | 'kvp' | 'BCarray' | 'BCassoc' | 'BCkvp', kvpKeyName?: string): T {
  const o = obj as Record<string, unknown>;
  o[META.TYPE] = type;
  if (kvpKeyName) o[META.KVP_KEY_NAME] = kvpKeyName;
  return obj;
}

export function setBCBools(obj: ResultObject, ...keys: string[]): ResultObject {
  const prev = (obj[META.BC_BOOLS] as string[] | undefined) ?? [];
  obj[META.BC_BOOLS] = [...prev, ...keys];
  return obj;
}
