import { Metadata, status as GrpcStatus, type ServiceError as GrpcServiceError } from '@grpc/grpc-js';

export { GrpcStatus };

/**
 * Metadata keys that carry MediaWiki's stable error code and the error's data across the gRPC
 * boundary. Both are binary (`-bin`) metadata holding UTF-8: the data often names what the caller
 * sent (a title, a user name), which may be any Unicode, and ASCII metadata refuses anything else.
 */
export const MW_CODE_KEY = 'mw-code-bin';
export const MW_DATA_KEY = 'mw-data-bin';
/** The ASCII keys of services built before the binary ones, still read during a rolling upgrade. */
const LEGACY_CODE_KEY = 'mw-code';
const LEGACY_DATA_KEY = 'mw-data';

/**
 * Status details and metadata travel as HTTP/2 headers, whose whole list a peer refuses past
 * 64 KB: the call then never completes. Errors echo what the caller sent (a 70 KB "title"), so
 * the message and the data's long strings are cut; MediaWiki's titles are at most 255 bytes anyway.
 */
const MAX_MESSAGE_CHARS = 4096;
const MAX_DATA_BYTES = 16384;
const MAX_DATA_STRING_CHARS = 1024;

function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function shortenStrings(v: unknown): unknown {
  if (typeof v === 'string') return shorten(v, MAX_DATA_STRING_CHARS);
  if (Array.isArray(v)) return v.slice(0, 100).map(shortenStrings);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .slice(0, 100)
        .map(([k, x]) => [k, shortenStrings(x)]),
    );
  return v;
}

/** The same text with lone surrogates replaced, so it encodes as UTF-8 (grpc-js percent-encodes the status message). */
function wellFormed(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/**
 * The one error convention of every service: an explicit gRPC status plus a stable MediaWiki
 * error code (e.g. "missingtitle", "badtoken") and optional structured data. The gateway maps
 * it once: to an action API error code, or to a REST status. `data` is for the gateway; only
 * `data.api` (an object) is shown to clients, as fields of the action API error.
 */
export class ServiceError extends Error {
  constructor(
    readonly grpcCode: GrpcStatus,
    readonly mwCode: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  /** The status a handler answers with; never throws, whatever the message and data hold. */
  toGrpc(): Partial<GrpcServiceError> {
    const metadata = new Metadata();
    metadata.set(MW_CODE_KEY, Buffer.from(this.mwCode, 'utf8'));
    if (Object.keys(this.data).length > 0) {
      let json: string | undefined;
      try {
        json = JSON.stringify(this.data);
        if (Buffer.byteLength(json) > MAX_DATA_BYTES) json = JSON.stringify(shortenStrings(this.data));
      } catch {
        json = undefined; // not serializable (a cycle, a BigInt): the code and message still go
      }
      if (json !== undefined) metadata.set(MW_DATA_KEY, Buffer.from(json, 'utf8'));
    }
    return { code: this.grpcCode, details: wellFormed(shorten(this.message, MAX_MESSAGE_CHARS)), metadata };
  }

  /** Rebuilds a ServiceError from what a gRPC client received. */
  static fromGrpc(err: unknown): ServiceError {
    if (err instanceof ServiceError) return err;
    const e = (err ?? {}) as Partial<GrpcServiceError>;
    const code = typeof e.code === 'number' ? e.code : GrpcStatus.INTERNAL;
    const md = e.metadata instanceof Metadata ? e.metadata : undefined;
    const text = (key: string): string | undefined => {
      const v = md?.get(key)[0];
      return v === undefined ? undefined : Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
    };
    const mwCode = text(MW_CODE_KEY) ?? text(LEGACY_CODE_KEY) ?? defaultMwCode(code);
    let data: Record<string, unknown> = {};
    const raw = text(MW_DATA_KEY) ?? text(LEGACY_DATA_KEY);
    if (raw !== undefined) {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
      } catch {
        data = {};
      }
    }
    return new ServiceError(code, mwCode, e.details || e.message || 'service call failed', data);
  }
}

function defaultMwCode(code: GrpcStatus): string {
  switch (code) {
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
      return 'serviceunavailable';
    case GrpcStatus.NOT_FOUND:
      return 'notfound';
    case GrpcStatus.PERMISSION_DENIED:
      return 'permissiondenied';
    case GrpcStatus.INVALID_ARGUMENT:
      return 'badvalue';
    default:
      return 'internal_api_error';
  }
}

export const notFound = (mwCode: string, msg: string, data?: Record<string, unknown>) => new ServiceError(GrpcStatus.NOT_FOUND, mwCode, msg, data);
export const invalidArgument = (mwCode: string, msg: string, data?: Record<string, unknown>) => new ServiceError(GrpcStatus.INVALID_ARGUMENT, mwCode, msg, data);
export const permissionDenied = (mwCode: string, msg: string, data?: Record<string, unknown>) => new ServiceError(GrpcStatus.PERMISSION_DENIED, mwCode, msg, data);
export const alreadyExists = (mwCode: string, msg: string, data?: Record<string, unknown>) => new ServiceError(GrpcStatus.ALREADY_EXISTS, mwCode, msg, data);
export const conflict = (mwCode: string, msg: string, data?: Record<string, unknown>) => new ServiceError(GrpcStatus.ABORTED, mwCode, msg, data);
export const failedPrecondition = (mwCode: string, msg: string, data?: Record<string, unknown>) => new ServiceError(GrpcStatus.FAILED_PRECONDITION, mwCode, msg, data);
export const unauthenticated = (mwCode: string, msg: string, data?: Record<string, unknown>) => new ServiceError(GrpcStatus.UNAUTHENTICATED, mwCode, msg, data);
export const resourceExhausted = (mwCode: string, msg: string, data?: Record<string, unknown>) => new ServiceError(GrpcStatus.RESOURCE_EXHAUSTED, mwCode, msg, data);
