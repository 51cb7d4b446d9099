/*
 * Fault injection for tests: a service module is started exactly as startService starts
 * it, except that its runtime's database or token store is wrapped so that every call fails while
 * the test says so. The service's own constructor (`create`) receives the failing dependency, so
 * the failure happens inside real handlers, and the test can check that the call gets an answer
 * and that the service serves the next call.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { ServiceError } from './errors.js';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { makeTestEnv, type Backend } from './testing.js';
import { loadConfig } from './config.js';
import { openDb } from './db.js';
import { openKv } from './kv.js';
import { createLogger } from './log.js';
import { startGrpcServer, wrapService, type AsyncHandlers } from './grpc.js';
import { resolveSecretKey } from './datadir.js';
import { serviceConfigSpec, type ServiceModule, type ServiceRuntime } from './service.js';

/** A switch shared by the wrapped dependencies of one test. */
export interface FaultSwitch {
  failing: boolean;
  /** Calls that failed because of the switch. */
  injected: number;
}

export class InjectedFault extends Error {
  constructor(what: string) {
    super(`injected fault: ${what}`);
    this.name = 'InjectedFault';
  }
}

/**
 * `target` with every method failing while `fault.failing` is set: asynchronous methods (as the
 * database's and token store's are) reject, as a lost connection makes them.
 */
export function failingWhen<T extends object>(target: T, what: string, fault: FaultSwitch): T {
  return new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (fault.failing && prop !== 'close') {
          fault.injected++;
          return Promise.reject(new InjectedFault(`${what}.${String(prop)}`));
        }
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

export interface FaultyService {
  address: string;
  fault: FaultSwitch;
  stop(): Promise<void>;
}

/** Starts `mod` on `env` like startService, with its database and token store behind `fault`. */
export async function startServiceWithFaults(mod: ServiceModule, env: NodeJS.ProcessEnv): Promise<FaultyService> {
  const cfg = loadConfig(serviceConfigSpec(mod.name), env);
  const log = createLogger(mod.name, env.LOG_LEVEL ?? 'silent');
  const dataDir = path.resolve(cfg.dataDir);
  const fault: FaultSwitch = { failing: false, injected: 0 };
  const db = await openDb({ url: cfg.databaseUrl, dataDir, schema: mod.name, migrationsDir: mod.migrationsDir, log, poolSize: cfg.dbPoolSize });
  const kv = await openKv({ url: cfg.redisUrl, prefix: `${cfg.kvPrefix}${mod.name}:` });
  const runtime: ServiceRuntime = {
    name: mod.name,
    db: failingWhen(db, 'db', fault),
    kv: failingWhen(kv, 'kv', fault),
    log,
    dataDir,
    secretKey: resolveSecretKey(dataDir, cfg.secretKey),
    env,
  };
  const created = await mod.create(runtime);
  const inflight = new Set<Promise<unknown>>();
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    log,
    inflight,
    secretKey: runtime.secretKey,
    services: created.bindings.map((b) => ({
      name: b.name,
      definition: b.definition,
      implementation: wrapService(b.definition, b.handlers as AsyncHandlers<ServiceDefinition>, log, inflight),
    })),
  });
  return {
    address: server.address,
    fault,
    async stop() {
      fault.failing = false;
      await server.shutdown();
      await created.close?.();
      await kv.close();
      await db.close();
    },
  };
}

/** Starts `mod` with faults on a fresh test environment of `backend`; stop() also removes it. */
export async function startFaultyTestService(mod: ServiceModule, backend: Backend, extraEnv: NodeJS.ProcessEnv = {}): Promise<FaultyService> {
  const env = await makeTestEnv(backend, extraEnv);
  try {
    const svc = await startServiceWithFaults(mod, env.env);
    return {
      ...svc,
      async stop() {
        await svc.stop();
        await env.cleanup();
      },
    };
  } catch (e) {
    await env.cleanup();
    throw e;
  }
}

/** The call failed with INTERNAL, and the cause (the injected fault) was not sent to the caller. */
export async function assertInternalWithoutDetails(call: Promise<unknown>): Promise<void> {
  await assert.rejects(call, (e: unknown) => {
    assert.ok(e instanceof ServiceError);
    assert.equal(e.grpcCode, GrpcStatus.INTERNAL);
    assert.doesNotMatch(e.message, /injected/, 'the cause is logged, not sent');
    return true;
  });
}
