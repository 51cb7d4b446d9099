import { Metadata, status as GrpcStatus, type ServiceError as GrpcServiceError } from '@grpc/grpc-js';

export { GrpcStatus };

/** Metadata keys that carry MediaWiki's stable error code across the gRPC boundary. */
export const MW_CODE_KEY = 'mw-code';
export const MW_DATA_KEY = 'mw-data';

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

  toGrpc(): Partial<GrpcServiceError> {
    const metadata = new Metadata();
    metadata.set(MW_CODE_KEY, this.mwCode);
    if (Object.keys(this.data).length > 0) metadata.set(MW_DATA_KEY, JSON.stringify(this.data));
    return { code: this.grpcCode, details: this.message, metadata };
  }

  /** Rebuilds a ServiceError from what a gRPC client received. */
  static fromGrpc(err: unknown): ServiceError {
    if (err instanceof ServiceError) return err;
    const e = err as Partial<GrpcServiceError>;
    const code = typeof e.code === 'number' ? e.code : GrpcStatus.INTERNAL;
    const md = e.metadata;
    const mwCode = String(md?.get(MW_CODE_KEY)[0] ?? defaultMwCode(code));
    let data: Record<string, unknown> = {};
    const raw = md?.get(MW_DATA_KEY)[0];
    if (raw !== undefined) {
      try {
        data = JSON.parse(String(raw)) as Record<string, unknown>;
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

export const notFound = (mwCode: string, msg: string, data?: Record<string, unknown>) =>
  new ServiceError(GrpcStatus.NOT_FOUND, mwCode, msg, data);
export const invalidArgument = (mwCode: string, msg: string, data?: Record<string, unknown>) =>
  new ServiceError(GrpcStatus.INVALID_ARGUMENT, mwCode, msg, data);
export const permissionDenied = (mwCode: string, msg: string, data?: Record<string, unknown>) =>
  new ServiceError(GrpcStatus.PERMISSION_DENIED, mwCode, msg, data);
export const alreadyExists = (mwCode: string, msg: string, data?: Record<string, unknown>) =>
  new ServiceError(GrpcStatus.ALREADY_EXISTS, mwCode, msg, data);
export const conflict = (mwCode: string, msg: string, data?: Record<string, unknown>) =>
  new ServiceError(GrpcStatus.ABORTED, mwCode, msg, data);
export const failedPrecondition = (mwCode: string, msg: string, data?: Record<string, unknown>) =>
  new ServiceError(GrpcStatus.FAILED_PRECONDITION, mwCode, msg, data);
export const unauthenticated = (mwCode: string, msg: string, data?: Record<string, unknown>) =>
  new ServiceError(GrpcStatus.UNAUTHENTICATED, mwCode, msg, data);
export const resourceExhausted = (mwCode: string, msg: string, data?: Record<string, unknown>) =>
  new ServiceError(GrpcStatus.RESOURCE_EXHAUSTED, mwCode, msg, data);
