/*
 * The declaration contract of the REST API (MediaWiki's Rest\Handler + its coreRoutes.json entry,
 * in TypeScript). Each route is one file exporting a RouteDecl made with `defineRoute`; the
 * pipeline (rest/router.ts) matches it, validates its parameters and body from these
 * declarations, checks tokens and conditional headers, runs `execute`, and renders the response.
 * The OpenAPI document (rest/openapi.ts) is generated from the same declarations.
 */
import type { Caller, GatewayDeps } from '../context.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export const WRITE_METHODS: readonly HttpMethod[] = ['POST', 'PUT', 'DELETE', 'PATCH'];

/**
 * Where a parameter comes from. Body fields are declared in the route's `body` schema instead,
 * because they are typed JSON values rather than strings.
 */
export type ParamSource = 'path' | 'query' | 'header';

interface ParamBase {
  source: ParamSource;
  required?: boolean;
  /** One line for the OpenAPI document. */
  description: string;
}

/** MediaWiki ParamValidator types used by REST routes. */
export type RestParamDecl =
  | (ParamBase & { type: 'string'; default?: string })
  | (ParamBase & { type: 'integer'; default?: number; min?: number; max?: number })
  | (ParamBase & { type: 'boolean'; default?: boolean })
  | (ParamBase & { type: 'enum'; values: readonly string[]; default?: string })
  /** UserDef: a user name or IP address of the allowed kinds, in canonical form (UserDef::PARAM_ALLOWED_USER_TYPES). */
  | (ParamBase & { type: 'user'; userTypes: readonly ('name' | 'ip' | 'cidr' | 'interwiki')[]; default?: undefined });

export type ParamDecls = Record<string, RestParamDecl>;

type ParamValueOf<D extends RestParamDecl> = D extends { type: 'integer' } ? number : D extends { type: 'boolean' } ? boolean : D extends { type: 'enum'; values: readonly (infer V)[] } ? V : string;

/** Validated parameters: required ones and ones with a default are always present. */
export type ParamValues<P extends ParamDecls> = {
  [K in keyof P]: P[K] extends { required: true } | { default: unknown } ? ParamValueOf<P[K]> : ParamValueOf<P[K]> | undefined;
};

/** One field of a JSON request body; `any` is a field the handler reads leniently itself (any JSON value). */
export type BodyFieldDecl =
  | { type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'any'; required?: boolean; description: string }
  | { type: 'object'; required?: boolean; description: string; properties?: Record<string, BodyFieldDecl> };

type BodyValueOf<F extends BodyFieldDecl> = F extends { type: 'string' }
  ? string
  : F extends { type: 'integer' | 'number' }
    ? number
    : F extends { type: 'boolean' }
      ? boolean
      : F extends { type: 'array' }
        ? unknown[]
        : F extends { type: 'any' }
          ? unknown
          : F extends { properties: infer Props extends Record<string, BodyFieldDecl> }
            ? BodyValues<Props>
            : Record<string, unknown>;

export type BodyValues<F extends Record<string, BodyFieldDecl>> = {
  [K in keyof F]: F[K] extends { required: true } ? BodyValueOf<F[K]> : BodyValueOf<F[K]> | undefined;
};

/** The body `execute` sees: typed fields for a declared schema, plain JSON for the erased RouteDecl. */
type BodyOf<F extends Record<string, BodyFieldDecl>> = Record<string, BodyFieldDecl> extends F ? Record<string, unknown> : BodyValues<F>;

export const JSON_CONTENT_TYPE = 'application/json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
/** Its fields are read as a form's (PHP's $_POST); file parts are not body fields. */
export const MULTIPART_CONTENT_TYPE = 'multipart/form-data';
export type BodyContentType = typeof JSON_CONTENT_TYPE | typeof FORM_CONTENT_TYPE | typeof MULTIPART_CONTENT_TYPE;

export interface BodySchema<F extends Record<string, BodyFieldDecl> = Record<string, BodyFieldDecl>> {
  /** Accepted request Content-Types; anything else is a 415. */
  contentTypes: readonly BodyContentType[];
  fields: F;
  /**
   * The handler decodes its body itself as a PHP array (ParsoidHandler::getParsedBody) instead of
   * through MediaWiki's JsonBodyValidator: its own 415 and 400 messages, and a JSON list is
   * accepted (as the object of its indexes).
   */
  phpArray?: { unsupportedType: string; notAnArray: string };
}

/**
 * Validators of a representation (MediaWiki Handler::getETag/getLastModified/hasRepresentation),
 * compared with If-Match / If-None-Match / If-Modified-Since / If-Unmodified-Since.
 */
export interface Validators {
  /** A complete entity tag including quotes: `"abc"` (strong) or `W/"abc"` (weak). */
  etag?: string;
  lastModified?: Date;
  /** Whether the resource exists (for `If-Match: *`); defaults to "an ETag was given". */
  hasRepresentation?: boolean;
}

export interface RestResponse {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body (sent as application/json) … */
  json?: unknown;
  /** … or a text body with its own type (e.g. text/html for /html routes). */
  text?: string;
  contentType?: string;
  /** Sent as ETag / Last-Modified on GET and HEAD, and checked against conditional headers. */
  validators?: Validators;
}

export interface RestContext<P extends ParamDecls = ParamDecls, B = Record<string, unknown>> {
  readonly route: RouteDecl;
  readonly method: HttpMethod | 'HEAD';
  readonly params: ParamValues<P>;
  /** The validated body; empty for routes without a body schema. */
  readonly body: B;
  readonly deps: GatewayDeps;
  /** Who is calling, resolved on first use (reads that don't need it skip the auth round-trip). */
  caller(): Promise<Caller>;
  /** The router's route table (for the OpenAPI document). */
  readonly routes: readonly RouteDecl[];
  /** Absolute URL of a REST route, as MediaWiki's Router::getRouteUrl (path params rawurlencoded). */
  routeUrl(template: string, pathParams?: Record<string, string>, query?: Record<string, string>): string;
}

export interface RouteDecl<P extends ParamDecls = ParamDecls, F extends Record<string, BodyFieldDecl> = Record<string, BodyFieldDecl>> {
  method: HttpMethod;
  /** Path template under /w/rest.php, e.g. `/v1/page/{title}`; a `{param}` never spans a `/`. */
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  params: P;
  /** JSON (or form) body schema; required for write routes. */
  body?: BodySchema<F>;
  /** Changes state: refused for anonymous cross-origin requests from unlisted origins. */
  writes: boolean;
  /** Needs a CSRF token of this type in the body's `token` field (cookie sessions). */
  needsToken?: 'csrf';
  /** Cache-Control of successful responses, e.g. from deps.config.restMaxAge. */
  cacheControl?(deps: GatewayDeps): string;
  /**
   * Validators of the target resource before `execute` runs. Write routes declare it so that
   * If-Match / If-Unmodified-Since refuse with 412 before anything changes; read routes usually
   * return their validators with the response instead (one service call instead of two).
   */
  validators?(ctx: RestContext<P, BodyOf<F>>): Promise<Validators>;
  execute(ctx: RestContext<P, BodyOf<F>>): Promise<RestResponse>;
  /**
   * The route runs an action API module (MediaWiki's ActionModuleBasedHandler; the page write
   * routes run action=edit). That module's errors — a service error with its MediaWiki code, or
   * the gateway's ApiUsageError — are then answered as MediaWiki answers them: 400 naming the
   * code as `actionModuleErrorCode`, unless `mapError` (the handler's
   * throwHttpExceptionForActionModuleError) answers the code itself. Without it, service errors
   * get the REST API's generic status mapping (rest/responses.ts).
   */
  actionModule?: {
    mapError?(err: ActionModuleError, ctx: RestContext<P, BodyOf<F>>): RestError | undefined;
  };
}

/** An error of the action module a route runs, as ActionModuleBasedHandler sees it. */
export interface ActionModuleError {
  /** The action API error code ("protectedpage", "editconflict"…). */
  code: string;
  /** Its English message. */
  message: string;
  /** How long the service asks the client to wait, for a rate limit (seconds). */
  retryAfterSeconds?: number;
}

/** Declares a route with its parameter and body types inferred for `execute`. */
export function defineRoute<const P extends ParamDecls, const F extends Record<string, BodyFieldDecl> = Record<string, never>>(decl: RouteDecl<P, F>): RouteDecl {
  return decl as unknown as RouteDecl;
}

/**
 * A REST error (MediaWiki's LocalizedHttpException, or HttpException when `localized` is false).
 * Localized: `{...data, messageTranslations: {en}, httpCode, httpReason}`;
 * plain: `{message, ...data, httpCode, httpReason}` (no `message` when it is empty).
 */
export class RestError extends Error {
  readonly localized: boolean;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    message: string,
    readonly data: Record<string, unknown> = {},
    opts: { localized?: boolean; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'RestError';
    this.localized = opts.localized ?? true;
    this.headers = opts.headers ?? {};
  }
}
