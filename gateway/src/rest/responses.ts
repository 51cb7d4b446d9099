/*
 * Error bodies of the REST API (MediaWiki's ResponseFactory) and the one mapping of service
 * errors to REST statuses.
 */
import { STATUS_CODES } from 'node:http';
import { GrpcStatus, ServiceError, currentRequestId } from '@quire/kit';
import { ApiUsageError } from '../action/types.js';
import { RestError, type ActionModuleError } from './types.js';

/** Seconds a client is asked to wait (Retry-After) when a backend service is unavailable. */
export const SERVICE_RETRY_AFTER_S = 5;

/** Reason phrases as MediaWiki's HttpStatus (PHP) spells them where Node differs. */
const MW_REASONS: Record<number, string> = { 413: 'Request Entity Too Large' };

export function httpReason(status: number): string {
  return MW_REASONS[status] ?? STATUS_CODES[status] ?? 'Unknown';
}

/**
 * The JSON body of an error response, keys in MediaWiki's order. A server-side failure (5xx)
 * also names the request's id as `reqId`, the key MediaWiki's exception records use
 * (MWExceptionHandler), so that an operator finds its log lines; MediaWiki 1.39's REST body
 * itself names none (ResponseFactory::createFromException), while its action API does
 * (apierror-exceptioncaughttype).
 */
export function errorBody(err: RestError): Record<string, unknown> {
  const head = err.localized ? { ...err.data, messageTranslations: { en: err.message } } : { ...(err.message ? { message: err.message } : {}), ...err.data };
  const reqId = err.status >= 500 ? currentRequestId() : undefined;
  return { ...head, ...(reqId ? { reqId } : {}), httpCode: err.status, httpReason: httpReason(err.status) };
}

/** MediaWiki's REST i18n messages (includes/Rest/i18n/en.json) used by the pipeline and routes. */
export const restMessages = {
  noMatch: (relPath: string) => new RestError(404, `The requested relative path (${relPath}) did not match any known handler`),
  wrongMethod: (method: string, allowed: string[]) =>
    new RestError(
      405,
      `The request method (${method}) was not ${allowed.length === 1 ? 'the allowed method for this path' : 'one of the allowed methods for this path'} (${allowed.join(', ')})`,
      {},
      { headers: { Allow: allowed.join(', ') } },
    ),
  nonexistentTitle: (title: string) => new RestError(404, `The specified title (${title}) does not exist`),
  crossOriginAnonWrite: () => new RestError(403, '', { error: 'rest-cross-origin-anon-write' }, { localized: false }),
  missingToken: () => new RestError(400, 'The "token" parameter must be set.', { actionModuleErrorCode: 'missingparam' }),
  badToken: () => new RestError(403, 'Invalid CSRF token.'),
  readDenied: () => new RestError(403, '', { error: 'rest-read-denied' }, { localized: false }),
  writeDenied: () => new RestError(403, '', { error: 'rest-write-denied' }, { localized: false }),
  serviceUnavailable: () => new RestError(503, 'The wiki is temporarily unavailable. Please try again later.', {}, { headers: { 'Retry-After': String(SERVICE_RETRY_AFTER_S) } }),
};

/** MediaWiki's body for an unexpected exception: its type, never its message or stack. */
function internalError(err: unknown): RestError {
  const type = err instanceof Error ? err.constructor.name : typeof err;
  return new RestError(500, `Error: exception of type ${type}`, {}, { localized: false });
}

/**
 * Maps a service error to a REST error, once for every route. Statuses MediaWiki's REST handlers
 * pick for specific failures carry only the message; a plain 400 also names the service's
 * MediaWiki error code as `actionModuleErrorCode`, as MediaWiki's action-module-based handlers do.
 */
export function restErrorFromService(err: ServiceError): RestError {
  switch (err.grpcCode) {
    case GrpcStatus.NOT_FOUND:
      return new RestError(404, err.message);
    case GrpcStatus.INVALID_ARGUMENT:
      return new RestError(400, err.message, { actionModuleErrorCode: err.mwCode });
    case GrpcStatus.PERMISSION_DENIED:
      return new RestError(403, err.message);
    case GrpcStatus.UNAUTHENTICATED:
      return new RestError(401, err.message);
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.ABORTED:
      return new RestError(409, err.message);
    case GrpcStatus.RESOURCE_EXHAUSTED: {
      // The service may say how long to back off (data.retryAfter, seconds).
      const retryAfter = typeof err.data.retryAfter === 'number' && err.data.retryAfter > 0 ? Math.ceil(err.data.retryAfter) : 1;
      return new RestError(429, err.message, {}, { headers: { 'Retry-After': String(retryAfter) } });
    }
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
      // A service is down or overloaded: a temporary condition clients should back off from,
      // not a server bug. The gRPC details (addresses, errno) stay in the log.
      return restMessages.serviceUnavailable();
    default:
      return internalError(err);
  }
}

/** Service statuses that are the service's failure, not a refusal of the request. */
const FAILURE_STATUSES: ReadonlySet<GrpcStatus> = new Set([GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.INTERNAL, GrpcStatus.UNKNOWN, GrpcStatus.DATA_LOSS]);

/** A refusal by an action module (its service's error or the gateway's ApiUsageError); undefined for anything else. */
export function actionModuleErrorOf(err: unknown): ActionModuleError | undefined {
  if (err instanceof ApiUsageError) return { code: err.code, message: err.info };
  if (!(err instanceof ServiceError) || FAILURE_STATUSES.has(err.grpcCode) || err.mwCode.startsWith('internal_api_error')) return undefined;
  const retryAfter = err.data.retryAfter;
  return { code: err.mwCode, message: err.message, ...(typeof retryAfter === 'number' && retryAfter > 0 ? { retryAfterSeconds: Math.ceil(retryAfter) } : {}) };
}

/** ActionModuleBasedHandler::throwHttpExceptionForActionModuleError's default: 400 naming the module's code. */
export function actionModuleRestError(err: ActionModuleError): RestError {
  return new RestError(400, err.message, { actionModuleErrorCode: err.code });
}

/** A mapped action module error with its own status (no actionModuleErrorCode), Retry-After on a 429. */
export function actionModuleStatusError(err: ActionModuleError, status: number): RestError {
  const headers: Record<string, string> = status === 429 ? { 'Retry-After': String(err.retryAfterSeconds ?? 1) } : {};
  return new RestError(status, err.message, {}, { headers });
}

/** Any failure as a REST error; the caller logs those that are the server's fault (status 500). */
export function toRestError(err: unknown): RestError {
  if (err instanceof RestError) return err;
  if (err instanceof ServiceError) return restErrorFromService(err);
  return internalError(err);
}
