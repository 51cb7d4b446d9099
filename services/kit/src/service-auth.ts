/*
 * Who may call a service: only a process that holds the wiki's secret. Every gRPC call between
 * Quire's processes carries `x-quire-service-auth: v1.<unix seconds>.<HMAC(key, seconds + path)>`,
 * made by a client interceptor and checked by one server interceptor (health checks excepted, so
 * that probes need no secret). Without it any local process could call, say, the auth service's
 * ChangeUserGroups and make itself an administrator. Calls carried inside one process
 * (grpc-local.ts) never leave it and need no proof.
 */
import crypto from 'node:crypto';
import { InterceptingCall, ResponderBuilder, ServerInterceptingCall, ServerListenerBuilder, status as GrpcStatus, type Interceptor, type ServerInterceptor } from '@grpc/grpc-js';

export const SERVICE_AUTH_HEADER = 'x-quire-service-auth';

/** How far a caller's clock may be from the service's (seconds); a captured proof is good this long, for this one method. */
export const SERVICE_AUTH_WINDOW_SECONDS = 300;

const HEALTH_PREFIX = '/grpc.health.v1.Health/';

/** The key calls are signed with: derived from the wiki's secret, so the secret itself never signs anything else's way. */
export function serviceCallKey(secret: string): Buffer {
  return crypto.createHmac('sha256', secret).update('quire grpc caller v1').digest();
}

function mac(key: Buffer, seconds: number, path: string): Buffer {
  return crypto.createHmac('sha256', key).update(`${seconds}\n${path}`).digest();
}

export function signServiceCall(key: Buffer, path: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  return `v1.${nowSeconds}.${mac(key, nowSeconds, path).toString('base64url')}`;
}

/** Whether `value` proves its caller holds the key, for this method, within the window (compared in constant time). */
export function verifyServiceCall(key: Buffer, path: string, value: unknown, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  if (typeof value !== 'string') return false;
  const m = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return false;
  const seconds = Number(m[1]);
  if (Math.abs(nowSeconds - seconds) > SERVICE_AUTH_WINDOW_SECONDS) return false;
  const given = Buffer.from(m[2]!, 'base64url');
  const want = mac(key, seconds, path);
  return given.length === want.length && crypto.timingSafeEqual(given, want);
}

/** The client side: every call made through the channel carries the proof. */
export function serviceAuthClientInterceptor(key: Buffer): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set(SERVICE_AUTH_HEADER, signServiceCall(key, options.method_definition.path));
        next(metadata, listener);
      },
    });
}

/** The server side: a call without a valid proof is answered UNAUTHENTICATED before any handler runs. */
export function serviceAuthServerInterceptor(key: Buffer): ServerInterceptor {
  return (method, call) => {
    const path = method.path;
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        if (path.startsWith(HEALTH_PREFIX) || verifyServiceCall(key, path, metadata.get(SERVICE_AUTH_HEADER)[0])) next(metadata);
        else call.sendStatus({ code: GrpcStatus.UNAUTHENTICATED, details: 'this service answers only callers that hold the wiki secret' });
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}
