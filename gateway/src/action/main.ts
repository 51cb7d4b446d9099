/*
 * The action API pipeline (MediaWiki's ApiMain): CORS, common parameters, asserts, module
 * parameters and token, maxlag, POST-only modules, execution, unrecognized-parameter warnings,
 * and output in the requested format, errorformat and formatversion.
 */
import type { Request, RequestHandler, Response } from 'express';
import { GrpcStatus, ServiceError, currentRequestId, newRequestId } from '@quire/kit';
import { labelRequest } from '../observability.js';
import type { Caller, GatewayDeps } from '../context.js';
import { resolveCaller as resolveSessionCaller, type CallerOptions } from '../caller.js';
import { SCRIPT_PATH } from '../config.js';
import { ApiUsageError, type ActionContext, type ApiMessage, type CacheMode, type ModuleDecl, type Params, type ResultObject } from './types.js';
import { ErrorFormatter, ERROR_FORMATS, message, messageOf, MessageUsageError, usageError, type ErrorFormat } from './errors.js';
import { validateParams, type ParamHolder, type ValidationEnv } from './params.js';
import { createDefaultRegistry, type ModuleRegistry } from './registry.js';
import { DEFAULT_FORMAT, encodeJson, type FormatModuleDecl, type Printed } from './format.js';
import { transformResult } from './result.js';
import { cleanUpText } from './query/encoding.js';
import { readApiRequest, type ApiRequest } from './request.js';
import { submodulesOf } from './paraminfo.js';

export type CallerResolver = (req: Request, deps: GatewayDeps, opts: CallerOptions) => Promise<Caller>;

export interface ActionApiOptions {
  registry?: ModuleRegistry;
  resolveCaller?: CallerResolver;
}

/** Request headers a CORS preflight may ask for ($wgAllowedCorsHeaders). */
const ALLOWED_CORS_HEADERS = [
  'accept',
  'accept-language',
  'content-language',
  'content-type',
  'accept-encoding',
  'dnt',
  'origin',
  'user-agent',
  'api-user-agent',
  'access-control-max-age',
  'authorization',
];

const LAG_CACHE_MS = 1000;

/** How long whether anonymous users may read is reused (group permissions change only with the configuration). */
const ANON_RIGHTS_TTL_MS = 5000;

const WARNINGS_KEY = 'warnings';

/** Seconds a client should wait before retrying when a backend service is down. */
const SERVICE_RETRY_AFTER_S = 5;

/** ApiResult::ADD_ON_TOP for one key of an object other code holds a reference to (mutated in place). */
function addOnTop(obj: ResultObject, key: string, value: unknown): void {
  const rest = Object.entries(obj).filter(([k]) => k !== key);
  for (const k of Object.keys(obj)) delete obj[k];
  obj[key] = value;
  for (const [k, v] of rest) obj[k] = v;
}

function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) => {
    if (!pattern.includes('*')) return pattern === origin;
    const re = new RegExp(
      `^${pattern
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    return re.test(origin);
  });
}

/** BCP 47-ish codes MediaWiki accepts for uselang/errorlang; anything else falls back to English. */
function languageCode(value: string, contentLang: string): string {
  if (value === 'user') return 'en';
  if (value === 'content') return contentLang;
  return /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(value) ? value.toLowerCase() : 'en';
}

function isoNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** One request through the pipeline. */

/**
 * The start of a deprecation's `feature` (ApiParamValidatorCallbacks: "action=query&list=categorymembers",
 * then "&" and the parameter): the module selectors from the main module down to the module.
 */
function deprecationFeaturePrefix(holder: ParamHolder, modulePath: string): string {
  if (modulePath === 'main') return '';
  const [first, sub] = modulePath.split('+');
  const group = 'group' in holder && typeof holder.group === 'string' ? holder.group : 'action';
  if (sub === undefined) return `${group === 'format' ? 'format' : 'action'}=${first}`;
  return `action=${first}&${group}=${sub}`;
}

class ApiMainRun {
  readonly errorFormatter: ErrorFormatter;
  readonly used = new Set<string>();
  readonly result: ResultObject = {};
  /** WebRequest::getRequestId: the HTTP request's id (X-Request-Id), the one its logs and gRPC calls carry. */
  readonly requestId = currentRequestId() ?? newRequestId();
  caller: Caller | undefined;
  module: ModuleDecl | undefined;
  printer: FormatModuleDecl | undefined;
  printerParams: Params = {};
  highLimits = false;
  namespaces: number[] = [];
  namespacePrefixes: ReadonlySet<string> = new Set();
  /** ApiMain's mCacheMode and mCacheControl (max-age / s-maxage in the order they were set). */
  cacheMode: CacheMode = 'private';
  readonly cacheControl = new Map<'max-age' | 's-maxage', number>();
  /** ApiMain::$mModule: set once the module's parameters and token passed (setupModule). */
  moduleSetUp = false;
  rawOutput: { contentType: string; filename: string; body: string } | undefined;
  readonly lacksSameOriginSecurity: boolean;

  constructor(
    readonly api: ApiRequest,
    readonly req: Request,
    readonly res: Response,
    readonly deps: GatewayDeps,
    readonly registry: ModuleRegistry,
  ) {
    const ef = api.values.get('errorformat');
    this.errorFormatter = new ErrorFormatter(ef && (ERROR_FORMATS as readonly string[]).includes(ef) ? (ef as ErrorFormat) : 'bc');
    // JSONP, anonymous CORS and Treat-as-Untrusted requests never carry the user's credentials.
    this.lacksSameOriginSecurity = api.values.has('callback') || api.values.get('origin') === '*' || req.headers['treat-as-untrusted'] !== undefined;
  }

  warn(modulePath: string, msg: ApiMessage): void {
    // ApiErrorFormatter adds `warnings` with ADD_ON_TOP when the first warning arrives: keys added
    // on top later (batchcomplete, continue) go above it, everything else stays below.
    if (!(WARNINGS_KEY in this.result)) addOnTop(this.result, WARNINGS_KEY, undefined);
    this.errorFormatter.addWarning(modulePath, msg);
    // ApiBase::addDeprecation: every deprecation (a deprecated parameter, value or format) also
    // points to the announcements list, once (identical warnings are kept once).
    if (msg.code === 'deprecation') this.errorFormatter.addWarning('main', message('deprecation-help', 'api-usage-mailinglist-ref'));
  }

  /** ApiMain::getVal: arrays (`x[]=`) are refused with a warning. */
  source() {
    return {
      get: (name: string) => {
        if (this.api.arrays.has(name)) {
          this.warn('main', message('unsupportedarray', 'apiwarn-unsupportedarray', [name]));
          return undefined;
        }
        return this.api.values.get(name);
      },
      markUsed: (name: string) => this.used.add(name),
    };
  }

  env(modulePath: string, moduleName: string, featurePrefix = ''): ValidationEnv {
    return {
      featurePrefix,
      highLimits: this.highLimits,
      namespaces: this.namespaces,
      namespacePrefixes: this.namespacePrefixes,
      warn: (msg) => this.warn(modulePath, msg),
      parsedLimit: (value) => {
        const limits = (this.result.limits ??= {}) as Record<string, unknown>;
        limits[moduleName] = value;
      },
    };
  }

  /** ApiBase::requirePostedParameters: `mustpostparams` for those of `names` found in the query string. */
  requirePosted(names: readonly string[]): void {
    const inQuery = names.filter((n) => this.api.queryNames.has(n));
    if (inQuery.length > 0) throw usageError('mustpostparams', 'apierror-mustpostparams', [inQuery.join(', '), inQuery.length]);
  }

  /** ApiMain::setCacheMode (the private-wiki rule is applied when the headers are sent). */
  setCacheMode(mode: CacheMode): void {
    // The user language makes the response differ between users: only anonymous ones share it.
    this.cacheMode = mode === 'public' && (this.api.values.get('uselang') ?? 'user') === 'user' ? 'anon-public-user-private' : mode;
  }

  validate(holder: ParamHolder, modulePath: string, moduleName: string): Params {
    try {
      return validateParams(holder, this.source(), this.env(modulePath, moduleName, deprecationFeaturePrefix(holder, modulePath)));
    } catch (e) {
      if (e instanceof ApiUsageError) e.modulePath ??= modulePath;
      throw e;
    }
  }

  /** ApiMain::addRequestedFields, read leniently so errors in other parameters still echo them. */
  addRequestedFields(forceServedBy: boolean): void {
    const v = this.api.values;
    const requestid = v.get('requestid');
    if (requestid !== undefined) this.result.requestid = cleanUpText(requestid);
    if (forceServedBy || v.has('servedby')) this.result.servedby = this.deps.config.servedBy;
    if (v.has('curtimestamp')) this.result.curtimestamp = isoNow();
    if (v.has('responselanginfo')) {
      const uselang = languageCode(v.get('uselang') ?? 'user', this.deps.config.lang);
      const errorlang = v.get('errorlang') ?? 'uselang';
      this.result.uselang = uselang;
      this.result.errorlang = errorlang === 'uselang' ? uselang : languageCode(errorlang, this.deps.config.lang);
    }
  }
}

/** An error ApiMain itself raises (reported for module "main"). */
function mainError(code: string, key: string, params: (string | number)[] = []): ApiUsageError {
  const e = usageError(code, key, params);
  e.modulePath = 'main';
  return e;
}

function isApiUsage(e: unknown): e is ApiUsageError {
  return e instanceof ApiUsageError;
}

/** The part of a service error's data meant for clients: `data.api` (see ApiUsageError in types.ts). */
function clientErrorData(e: ServiceError): Record<string, unknown> {
  const api = e.data.api;
  return api !== null && typeof api === 'object' && !Array.isArray(api) ? { ...(api as Record<string, unknown>) } : {};
}

/** gRPC failures carry a MediaWiki code (kit's ServiceError); anything else is an internal error. */
function toUsageError(e: unknown, requestId: string): ApiUsageError {
  if (isApiUsage(e)) return e;
  if (e instanceof ServiceError && (e.grpcCode === GrpcStatus.UNAVAILABLE || e.grpcCode === GrpcStatus.DEADLINE_EXCEEDED)) {
    // A backend service is down or too slow: say so without its internals, and when to retry.
    const err = new MessageUsageError(message('serviceunavailable', 'apierror-serviceunavailable'), 200, { 'Retry-After': String(SERVICE_RETRY_AFTER_S) });
    err.modulePath = 'main';
    return err;
  }
  if (e instanceof ServiceError && !e.mwCode.startsWith('internal_api_error')) {
    return new ApiUsageError(e.mwCode, e.message, clientErrorData(e));
  }
  const cls = e instanceof Error ? e.constructor.name : 'Exception';
  return new MessageUsageError(message(`internal_api_error_${cls}`, 'apierror-exceptioncaughttype', [requestId, cls], { errorclass: cls }));
}

/** ApiMain::getMaxLag's $lagInfo: what is behind, by how many seconds, and where. */
type LagInfo = { host: string; lag: number; type: 'db' } | { host: string; lag: number; type: 'jobqueue'; jobs: number } | { host: string; lag: number; type: 'search-indexer' };

export function createActionApiHandler(deps: GatewayDeps, opts: ActionApiOptions = {}): RequestHandler {
  const registry = opts.registry ?? createDefaultRegistry();
  const resolveCaller = opts.resolveCaller ?? resolveSessionCaller;
  let lagCache: { at: number; info: LagInfo } | undefined;
  let anonRead: { at: number; read: boolean } | undefined;

  /**
   * ApiMain::getMaxLag: the replicas' lag (type "db"); the job queue's size in seconds when
   * JOB_QUEUE_MAXLAG_FACTOR is set ($wgJobQueueIncludeInMaxLagFactor, type "jobqueue"); and, as
   * an ApiMaxLagInfo hook would add it, the search indexer's lag behind the change feed (type
   * "search-indexer"): the largest wins. A service that cannot say is left out (never fails the request).
   */
  async function maxLag(): Promise<LagInfo> {
    if (lagCache && Date.now() - lagCache.at < LAG_CACHE_MS) return lagCache.info;
    const factor = deps.config.jobQueueMaxLagFactor;
    const [db, jobs, search] = await Promise.all([
      deps.clients.content.getReplicationLag(),
      factor > 0
        ? deps.clients.content.getStatistics().then(
            (s) => s.jobs,
            () => undefined,
          )
        : undefined,
      Promise.resolve()
        .then(() => deps.clients.search.getIndexStatus({ deadlineMs: 1000 }))
        .then(
          (st) => (st.pendingChanges >= 0 ? st.lagSeconds : undefined),
          () => undefined,
        ),
    ]);
    let info: LagInfo = { host: db.host, lag: db.lagSeconds, type: 'db' };
    if (jobs !== undefined && jobs / factor > info.lag) info = { host: deps.config.servedBy, lag: jobs / factor, type: 'jobqueue', jobs };
    // Whole seconds: an index a few hundred milliseconds behind (every edit's normal delay) is not lag to a bot.
    if (search !== undefined && Math.floor(search) > info.lag) info = { host: deps.config.servedBy, lag: Math.floor(search), type: 'search-indexer' };
    lagCache = { at: Date.now(), info };
    return info;
  }

  /** ApiMain::handleCORS; false when the request was answered (403). */
  function handleCors(run: ApiMainRun): boolean {
    const { req, res } = run;
    const originParam = run.api.values.get('origin');
    if (originParam === undefined) return true;
    let allowOrigin: string;
    let allowCredentials: string;
    let matched: boolean;
    let timing: string | undefined;
    if (originParam === '*') {
      matched = true;
      allowOrigin = '*';
      allowCredentials = 'false';
    } else {
      const header = (req.headers.origin ?? '').trim();
      const origins = header === '' ? [] : header.split(/\s+/);
      if (!origins.includes(originParam)) {
        res.status(403).set({ 'Cache-Control': 'no-cache', 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
        res.send("'origin' parameter does not match Origin header\n");
        return false;
      }
      matched = origins.every((o) => originAllowed(o, deps.config.corsOriginList));
      allowOrigin = header;
      allowCredentials = 'true';
      timing = header;
      res.append('Vary', 'Origin');
    }
    if (!matched) {
      res.set('MediaWiki-CORS-Rejection', 'Origin mismatch');
      return true;
    }
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (preflight) {
      const requested = req.headers['access-control-request-headers'];
      if (requested !== undefined) {
        const names = requested
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean);
        if (!names.every((h) => ALLOWED_CORS_HEADERS.includes(h))) {
          res.set('MediaWiki-CORS-Rejection', 'Unsupported header requested in preflight');
          return true;
        }
        res.set('Access-Control-Allow-Headers', requested);
      }
      res.set('Access-Control-Allow-Methods', 'POST, GET, HEAD');
    }
    res.set('Access-Control-Allow-Origin', allowOrigin);
    res.set('Access-Control-Allow-Credentials', allowCredentials);
    if (timing !== undefined) res.set('Timing-Allow-Origin', timing);
    if (!preflight) res.set('Access-Control-Expose-Headers', 'MediaWiki-API-Error, Retry-After, X-Database-Lag, MediaWiki-Login-Suppressed');
    return true;
  }

  function checkAsserts(run: ApiMainRun, params: Params, caller: Caller): void {
    const anonymous = caller.user.anonymous;
    if (params.assert === 'anon' && !anonymous) throw mainError('assertanonfailed', 'apierror-assertanonfailed');
    if (params.assert === 'user' && anonymous) throw mainError('assertuserfailed', 'apierror-assertuserfailed');
    if (params.assert === 'bot' && !caller.user.rights.includes('bot')) throw mainError('assertbotfailed', 'apierror-assertbotfailed');
    if (typeof params.assertuser === 'string' && (anonymous || caller.user.name !== params.assertuser)) {
      throw mainError('assertnameduserfailed', 'apierror-assertnameduserfailed', [run.api.values.get('assertuser') ?? params.assertuser]);
    }
  }

  /**
   * The token a POST to a module that needs one will be checked for, as sent: resolving the caller
   * checks it in the same auth call (checkToken then uses the answer when type and token match).
   */
  function expectedToken(run: ApiMainRun): { type: string; token: string } | undefined {
    if (run.lacksSameOriginSecurity || run.api.method !== 'POST') return undefined;
    const action = run.api.values.get('action');
    const module = typeof action === 'string' ? registry.get('action', action) : undefined;
    const type = module?.flags.needsToken;
    const token = module && run.api.values.get(`${module.prefix}token`);
    return type && typeof token === 'string' ? { type, token } : undefined;
  }

  async function checkToken(run: ApiMainRun, module: ModuleDecl, params: Params, caller: Caller): Promise<void> {
    const type = module.flags.needsToken;
    if (!type) return;
    // ApiMain::setupModule: requirePostedParameters(['token']) before the token is looked at.
    run.requirePosted([`${module.prefix}token`]);
    const token = typeof params.token === 'string' ? params.token : '';
    // Requests without same-origin security (origin=*, JSONP) get no tokens and pass no token check.
    const checked = caller.checkedToken;
    const valid =
      !run.lacksSameOriginSecurity && (checked && checked.type === type && checked.token === token ? checked.valid : (await deps.clients.auth.checkToken(caller.sessionId, type, token)).valid);
    if (!valid) throw usageError('badtoken', 'apierror-badtoken');
  }

  /** ApiMain::checkExecutePermissions: `read` for read-mode modules, `writeapi` for write modules. */
  function checkExecutePermissions(run: ApiMainRun, module: ModuleDecl, params: Params, caller: Caller): void {
    const rights = caller.user.rights;
    const readMode = module.isReadMode ? module.isReadMode({ has: (name) => run.api.values.has(name), params, registry }) : module.flags.readRights !== false;
    if (readMode && !rights.includes('read')) throw mainError('readapidenied', 'apierror-readapidenied');
    if (module.flags.writeMode && !rights.includes('writeapi')) throw mainError('writeapidenied', 'apierror-writeapidenied');
  }

  async function checkMaxLag(_run: ApiMainRun, params: Params): Promise<void> {
    if (typeof params.maxlag !== 'number') return;
    const info = await maxLag();
    const { lag, host } = info;
    // No replica configured (-1) and nothing else behind: maxlag never fires, as in MediaWiki on a single database.
    if (lag < 0 || lag <= params.maxlag) return;
    const e = new MessageUsageError(message('maxlag', 'apierror-maxlag', [lag, host], { ...info }), 200, {
      'Retry-After': String(Math.max(Math.trunc(params.maxlag), 5)),
      'X-Database-Lag': String(Math.trunc(lag)),
    });
    e.modulePath = 'main';
    throw e;
  }

  function makeContext(run: ApiMainRun, module: ModuleDecl, params: Params, caller: Caller): ActionContext {
    const resolvePath = (name: string) => {
      if (name === 'main' || name.includes('+') || registry.get('action', name) || registry.format(name)) return name;
      const sub = registry.byPath(`query+${name}`);
      return sub ? registry.pathOf(sub) : name;
    };
    return {
      module,
      params,
      caller,
      deps,
      formatVersion: run.printer?.formatVersion(run.printerParams) ?? 1,
      method: run.api.method,
      highLimits: run.highLimits,
      raw: run.api.values,
      header: (name) => {
        const v = run.api.headers[name.toLowerCase()];
        return Array.isArray(v) ? v.join(', ') : v;
      },
      otherBody: run.api.otherBody,
      files: run.api.files,
      result: run.result,
      registry,
      addWarning: (name, msg) => run.warn(resolvePath(name), msg),
      setRawOutput: (output) => {
        run.rawOutput = output;
      },
      warningsComment: () => {
        const warnings = run.errorFormatter.renderWarnings();
        if (warnings === undefined) return '';
        // FormatJson::encode( …, pretty ), "--" escaped so that it cannot end the comment.
        const json = encodeJson(transformResult({ warnings }, { types: { assocAsObject: true }, strip: 'all' }), { pretty: true, asciiOnly: false }).replaceAll('--', '-\\u002D');
        return `<!-- API warnings and errors:\n${json}\n-->\n`;
      },
      markUsed: (name) => run.used.add(name),
      validateSubmodule: (sub) => run.validate(sub, registry.pathOf(sub), sub.name),
      requirePostedParameters: (names) => run.requirePosted(names),
      setCacheMode: (mode) => run.setCacheMode(mode),
      setCacheMaxAge: (seconds) => {
        run.cacheControl.set('max-age', seconds);
        run.cacheControl.set('s-maxage', seconds);
      },
    };
  }

  // The two walks below cover a module's whole submodule tree (all modules, for main): their
  // answers depend only on the declarations, so each module's is computed once, not per request.
  const namespaceNeeds = new Map<ModuleDecl, boolean>();
  function needsNamespaces(module: ModuleDecl): boolean {
    let needs = namespaceNeeds.get(module);
    if (needs === undefined) {
      const hasNs = (m: ModuleDecl) => Object.values(m.params).some((p) => p.type === 'namespace');
      // An action module with a page set (purge, watch) runs its generator's namespace parameters too.
      const generatorGroups = module.name !== 'query' ? module.params.generator?.submoduleGroup : undefined;
      const generators = generatorGroups ? [...registry.modules('prop'), ...registry.modules('list')] : [];
      needs = hasNs(module) || submodulesOf(registry, registry.pathOf(module)).some(hasNs) || generators.some(hasNs);
      namespaceNeeds.set(module, needs);
    }
    return needs;
  }

  /**
   * A `user` value with a colon was sent (to the module, its submodules or a generator): telling
   * names from page titles ("Talk:X") needs the namespace names.
   */
  const userParamNames = new Map<ModuleDecl, string[]>();
  function hasUserValue(run: ApiMainRun, module: ModuleDecl): boolean {
    let names = userParamNames.get(module);
    if (!names) {
      const of = (m: ModuleDecl, prefix: string) => Object.entries(m.params).flatMap(([name, p]) => (p.type === 'user' ? [prefix + name] : []));
      names = [...new Set([...of(module, module.prefix), ...submodulesOf(registry, registry.pathOf(module)).flatMap((m) => [...of(m, m.prefix), ...of(m, `g${m.prefix}`)])])];
      userParamNames.set(module, names);
    }
    return names.some((name) => run.api.values.get(name)?.includes(':'));
  }

  async function loadNamespacePrefixes(run: ApiMainRun): Promise<void> {
    const { namespaces, aliases } = await deps.site.namespaces();
    const names = [...namespaces.filter((n) => n.id !== 2).flatMap((n) => [n.name, n.canonical]), ...aliases.filter((a) => a.id !== 2).map((a) => a.alias)];
    run.namespacePrefixes = new Set(names.filter((n) => n).map((n) => n.replace(/_/g, ' ').toLowerCase()));
  }

  /** ApiMain::executeAction, up to the printing. */
  async function execute(run: ApiMainRun): Promise<void> {
    if (hasUserValue(run, registry.main)) await loadNamespacePrefixes(run);
    const mainParams = run.validate(registry.main, 'main', 'main');
    const caller = await resolveCaller(run.req, deps, { allowCredentials: !run.lacksSameOriginSecurity, formParams: run.api.form, token: expectedToken(run) });
    run.caller = caller;
    run.highLimits = caller.user.rights.includes('apihighlimits');
    checkAsserts(run, mainParams, caller);

    const printer = registry.format(String(mainParams.format));
    if (!printer) throw mainError('badvalue', 'paramvalidator-badvalue-enumnotmulti', ['format', String(mainParams.format)]);
    const action = String(mainParams.action);
    const module = registry.get('action', action);
    if (!module) throw mainError('badvalue', 'paramvalidator-badvalue-enumnotmulti', ['action', action]);
    run.module = module;
    if (needsNamespaces(module)) run.namespaces = await deps.site.namespaceIds();
    if (run.namespacePrefixes.size === 0 && hasUserValue(run, module)) await loadNamespacePrefixes(run);
    const params = run.validate(module, module.name, module.name);
    await checkToken(run, module, params, caller);
    run.moduleSetUp = true;
    checkExecutePermissions(run, module, params, caller);
    await checkMaxLag(run, mainParams);
    if (run.api.method !== 'POST' && module.flags.mustBePosted) {
      throw mainError('mustbeposted', 'apierror-mustbeposted', [module.name]);
    }
    if (run.api.postWithoutContentType) {
      run.warn('main', message('deprecation', 'apiwarn-deprecation-post-without-content-type'));
    }
    // The printer's parameters are validated before running the module so that a bad one never
    // follows a write (MediaWiki finds it only when printing: "Error printer failed").
    run.printerParams = validatePrinterParams(run, printer);
    run.printer = printer;
    for (const w of printer.warnings(run.printerParams)) run.warn(printer.name, w);

    // ApiBase::requirePostedParameters, which MediaWiki's modules call first thing in execute().
    run.requirePosted(
      Object.entries(module.params)
        .filter(([, d]) => d.mustBePosted)
        .map(([name]) => module.prefix + name),
    );
    await module.execute(makeContext(run, module, params, caller));
    reportUnusedParams(run, printer);
  }

  function validatePrinterParams(run: ApiMainRun, printer: FormatModuleDecl): Params {
    try {
      return run.validate(printer, printer.name, printer.name);
    } catch (e) {
      if (!isApiUsage(e)) throw e;
      run.warn(printer.name, messageOf(e));
      run.warn('main', message('errorprinterfailed', 'apiwarn-errorprinterfailed'));
      // The error is printed with the printer's defaults.
      run.printer = printer;
      run.printerParams = Object.fromEntries(Object.entries(printer.params).map(([k, d]) => [k, d.type === 'boolean' ? false : d.default]));
      e.modulePath = 'main';
      throw e;
    }
  }

  function reportUnusedParams(run: ApiMainRun, printer: FormatModuleDecl): void {
    if (run.api.values.has('callback')) run.used.add('_'); // jQuery's JSONP cache buster (T94015)
    const printerParams = new Set(Object.keys(printer.params));
    // Uploads are not request values in PHP ($_FILES), so they are never reported.
    const names = [...new Set([...run.api.values.keys(), ...run.api.arrays])];
    const unused = names.filter((n) => !run.used.has(n) && !printerParams.has(n));
    if (unused.length > 0) {
      run.warn('main', message('unrecognizedparams', 'apierror-unrecognizedparams', [unused.join(', '), unused.length]));
    }
  }

  /** The printer for errors: the requested format when it exists, else jsonfm (createErrorPrinter). */
  function errorPrinter(run: ApiMainRun): FormatModuleDecl {
    if (run.printer) return run.printer;
    const requested = registry.format(run.api.values.get('format') ?? DEFAULT_FORMAT) ?? registry.format(DEFAULT_FORMAT)!;
    run.printer = requested;
    try {
      run.printerParams = validateParams(requested, { get: (n) => run.api.values.get(n), markUsed: () => {} }, run.env(requested.name, requested.name));
    } catch {
      run.printerParams = {};
    }
    return requested;
  }

  function print(run: ApiMainRun, printer: FormatModuleDecl, body: ResultObject, status: number): Printed {
    return printer.print({
      result: body,
      params: run.printerParams,
      httpStatus: status,
      posted: run.api.method === 'POST',
      query: run.api.query,
      scriptUrl: `${deps.config.server}${SCRIPT_PATH}/api.php`,
      sitename: deps.config.sitename,
    });
  }

  /** Whether anonymous users may read (ApiMain::setCacheMode serves private wikis privately only). */
  async function anonymousCanRead(caller: Caller): Promise<boolean> {
    if (caller.user.anonymous) return caller.user.rights.includes('read');
    if (!anonRead || Date.now() - anonRead.at > ANON_RIGHTS_TTL_MS) {
      const r = await deps.clients.auth.resolveSession('', caller.ip);
      anonRead = { at: Date.now(), read: r.user?.rights.includes('read') ?? false };
    }
    return anonRead.read;
  }

  /** ApiMain::sendCacheHeaders: Cache-Control (and Expires, Vary: Cookie for shared caches). */
  async function cacheHeaders(run: ApiMainRun, isError: boolean): Promise<Record<string, string>> {
    const param = (name: string) => {
      const v = run.api.values.get(name);
      return v !== undefined && /^\d+$/.test(v) ? Number(v) : 0;
    };
    // Error results are never cached publicly (ApiMain::handleException).
    let mode: CacheMode = isError ? 'private' : run.cacheMode;
    if (mode !== 'private' && (!run.caller || !(await anonymousCanRead(run.caller)))) mode = 'private';
    const module = run.moduleSetUp ? run.module : undefined;
    const control = new Map(run.cacheControl);
    const maxage = control.get('max-age') ?? ((module && !module.flags.writeMode) || mode !== 'private' ? param('maxage') : 0);
    const privateCache = { 'Cache-Control': `private, must-revalidate, max-age=${maxage}` };
    // A session (logged in, or an anonymous one holding tokens) makes the response personal.
    const personal = run.caller !== undefined && (!run.caller.user.anonymous || run.caller.sessionId !== '');
    if (mode === 'private' || (mode === 'anon-public-user-private' && personal)) return privateCache;
    if (!control.has('s-maxage')) control.set('s-maxage', param('smaxage'));
    if (!control.has('max-age')) control.set('max-age', param('maxage'));
    const sMaxage = control.get('s-maxage')!;
    const maxAge = control.get('max-age')!;
    if (!sMaxage && !maxAge) return privateCache;
    const shortest = Math.min(sMaxage, maxAge);
    return {
      'Cache-Control': [...[...control].map(([k, v]) => `${k}=${v}`), 'public'].join(', '),
      Expires: new Date(shortest === 0 ? 1000 : Date.now() + shortest * 1000).toUTCString(),
    };
  }

  async function send(run: ApiMainRun, printed: Printed, isError: boolean, headers: Record<string, string>): Promise<void> {
    const { res, req } = run;
    // Counted under the module that ran (its name, as MediaWiki's api.<module> stats), else "main".
    labelRequest(res, run.module?.name ?? 'main');
    const cache = await cacheHeaders(run, isError);
    res.status(printed.httpStatus);
    res.set({
      ...headers,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Content-Disposition': `inline; filename=${printed.filename}`,
      ...cache,
      'Content-Type': `${printed.contentType}; charset=utf-8`,
      'X-Request-Id': run.requestId,
    });
    // OutputPage varies on Cookie by default; ApiMain adds Treat-as-Untrusted.
    res.append('Vary', 'Treat-as-Untrusted');
    res.append('Vary', 'Cookie');
    if (run.lacksSameOriginSecurity) res.set('MediaWiki-Login-Suppressed', 'true');
    res.end(req.method === 'HEAD' ? undefined : printed.body);
  }

  return async (req, res) => {
    let api: ApiRequest;
    try {
      api = await readApiRequest(req);
    } catch {
      res.status(400).type('text/plain').send('Malformed request body\n');
      return;
    }
    const run = new ApiMainRun(api, req, res, deps, registry);
    if (!handleCors(run)) return;
    if (req.method === 'OPTIONS') {
      res.status(200).set({ 'X-Content-Type-Options': 'nosniff' }).end();
      return;
    }
    run.addRequestedFields(false);
    try {
      if (!['GET', 'HEAD', 'POST'].includes(req.method)) {
        throw new MessageUsageError(message('invalidmethod', 'apierror-invalidmethod'), 405);
      }
      await execute(run);
      if (run.rawOutput) {
        await send(run, { ...run.rawOutput, httpStatus: 200 }, false, {});
        return;
      }
      const body: ResultObject = { ...run.result };
      // The warnings go where the first one put them (ApiMainRun.warn).
      const warnings = run.errorFormatter.renderWarnings();
      if (warnings === undefined) delete body[WARNINGS_KEY];
      else body[WARNINGS_KEY] = warnings;
      await send(run, print(run, run.printer!, body, 200), false, {});
    } catch (e) {
      const err = toUsageError(e, run.requestId);
      // A service's refusal of the client's input (nosuchuser, invalidtitle, badcontinue…) is no fault of ours.
      if (err.code.startsWith('internal_api_error')) deps.log.error({ err: e, requestId: run.requestId }, 'action API internal error');
      else if (err.code === 'serviceunavailable') deps.log.warn({ err: e, requestId: run.requestId }, 'action API: a service is unavailable');
      const printer = errorPrinter(run);
      // ApiMain::substituteResultWithError: the partial result is dropped but the warnings are
      // kept; the error goes on top of them, then the requested fields follow.
      const body: ResultObject = {};
      const warnings = run.errorFormatter.renderWarnings();
      if (warnings !== undefined) body[WARNINGS_KEY] = warnings;
      run.errorFormatter.renderError(body, err.modulePath ?? run.module?.name ?? 'main', messageOf(err), `${deps.config.server}${SCRIPT_PATH}/api.php`);
      addOnTop(body, 'error' in body ? 'error' : 'errors', body.error ?? body.errors);
      const fields = run.result;
      if ('requestid' in fields) body.requestid = fields.requestid;
      // MediaWiki forces servedby here only with $wgShowHostnames, which is off by default.
      if ('servedby' in fields) body.servedby = fields.servedby;
      for (const k of ['curtimestamp', 'uselang', 'errorlang']) if (k in fields) body[k] = fields[k];
      await send(run, print(run, printer, body, err.httpStatus), true, { ...err.headers, 'MediaWiki-API-Error': err.code });
    }
  };
}
