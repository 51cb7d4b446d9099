/*
 * The log relay against an unreachable content service, on every backend: entries wait in the
 * outbox, only the relay holding the lease tries to deliver (others never open a client), and
 * stop() ends the loop without waiting out the backoff and releases the lease. Delivery to a live content service is tested end to end in
 * e2e/auth-logs.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, makeClient, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { AuthServiceClient } from '@quire/proto/wiki/auth/v1/auth';
import { LogServiceClient } from '@quire/proto/wiki/content/logs/v1/logs';
import { AuthClient } from '@quire/gateway/clients/index';
import { authService } from '../server.js';
import { CONTENT_CHANNEL_OPTIONS, LEASE_KEY, LogRelay } from './logrelay.js';
import { LogOutbox } from '../store/logoutbox.js';

/** Nothing listens on port 1: every call fails with UNAVAILABLE. */
const UNREACHABLE = '127.0.0.1:1';

for (const backend of testBackends()) {
  describe(`log relay (${backend})`, () => {
    let env: TestEnv;
    let svc: RunningService;
    let auth: AuthClient;

    before(async () => {
      // Auth alone, with no CONTENT_GRPC_ADDR: its own relay does not run.
      env = await makeTestEnv(backend, { AUTH_GRPC_PORT: '0' });
      svc = await startService(authService, env.env);
      auth = new AuthClient(makeClient(AuthServiceClient, svc.address));
    });
    after(async () => {
      auth.close();
      await svc.stop();
      await env.cleanup();
    });

    test('one relay at a time: the lease holder tries an unreachable content service, the others stay idle; stop releases the lease', async (t) => {
      const { db, kv } = svc.runtime;
      const connects = [0, 0];
      const relays = connects.map(
        (_, i) =>
          new LogRelay(
            new LogOutbox(db),
            () => {
              connects[i]!++;
              return makeClient(LogServiceClient, UNREACHABLE, CONTENT_CHANNEL_OPTIONS);
            },
            kv,
            createLogger('relay-test', 'silent'),
          ),
      );
      for (const r of relays) r.start();
      try {
        assert.equal((await auth.createAccount({ username: 'Pending', password: 'pendingpass123456', ip: '10.0.0.1' })).ok, true);
        await new Promise((r) => setTimeout(r, 2000));
        const pending = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM auth.log_outbox WHERE delivered_at IS NULL`);
        assert.equal(pending.rows[0]!.n, 1, 'the entry waits in the outbox');
        assert.equal(connects.filter((n) => n > 0).length, 1, `exactly one relay tried (${connects.join(', ')})`);
        assert.ok(await kv.get(LEASE_KEY));
        t.diagnostic(`content clients opened per relay: ${connects.join(', ')}`);
      } finally {
        const started = Date.now();
        await Promise.all(relays.map((r) => r.stop()));
        assert.ok(Date.now() - started < 1000, 'stop does not wait out the backoff');
      }
      assert.equal(await kv.get(LEASE_KEY), null, 'the holder released its lease');
    });
  });
}
