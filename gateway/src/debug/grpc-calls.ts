/*
 * Benchmark instrumentation: with GATEWAY_DEBUG_GRPC_CALLS=1, a request that sends
 * `X-Quire-Count-Grpc-Calls: 1` gets `X-Quire-Grpc-Calls`, the number of gRPC calls the gateway (in-process ones included)
 * made while serving it. Off by default; on, it patches grpc-js's Channel once and tracks only the
 * requests that ask (an AsyncLocalStorage), so the others are measured as they are served.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Channel } from '@grpc/grpc-js';
import type { RequestHandler } from 'express';
import { observeLocalCalls } from '@quire/kit';

const current = new AsyncLocalStorage<{ calls: number }>();
let patched = false;

function countCalls(): void {
  if (patched) return;
  patched = true;
  // Every call of every client goes through its channel's createCall (client methods capture
  // Client.prototype's request functions when their classes are made, so those cannot be wrapped).
  const original = Channel.prototype.createCall;
  Channel.prototype.createCall = function (this: Channel, ...args: Parameters<typeof original>) {
    const store = current.getStore();
    if (store) store.calls++;
    return original.apply(this, args);
  };
  // Calls to services in the same process skip the channel (kit's grpc-local.ts): counted as they start.
  observeLocalCalls(() => {
    const store = current.getStore();
    if (store) store.calls++;
  });
}

/** The middleware that counts (undefined when the instrumentation is off). */
export function grpcCallCounter(enabled = process.env.GATEWAY_DEBUG_GRPC_CALLS === '1'): RequestHandler | undefined {
  if (!enabled) return undefined;
  countCalls();
  return (req, res, next) => {
    if (!req.headers['x-quire-count-grpc-calls']) return next();
    const store = { calls: 0 };
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: unknown[]) {
      if (!this.headersSent) this.setHeader('X-Quire-Grpc-Calls', String(store.calls));
      return (writeHead as (...a: unknown[]) => typeof res).apply(this, args);
    } as typeof writeHead;
    current.run(store, next);
  };
}
