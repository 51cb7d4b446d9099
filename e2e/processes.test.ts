/*
 * Each service and the gateway as its own process, configured only by environment variables —
 * the way deploy/ runs them. On the servers backend they share one PostgreSQL database and
 * Redis; embedded, each service owns its own DATA_DIR (a PGlite folder belongs to one process).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { makeTestEnv, type TestEnv } from '@quire/kit/testing';
import { ROOT, testBackends, WikiClient } from './harness.js';

const STARTUP_TIMEOUT_MS = 60_000;
const SERVICES = ['content', 'auth', 'search'] as const;

interface Proc {
  name: string;
  child: ChildProcess;
  stderr: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnEntry(name: string, entry: string, env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const proc: Proc = {
    name,
    child,
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
  };
  child.stderr!.on('data', (d: Buffer) => (proc.stderr += d.toString()));
  return proc;
}

/**
 * Free TCP ports on loopback, all distinct (each probe stays open until all are chosen), below the
 * kernel's ephemeral range (32768–60999): a port the kernel handed out for a probe was free again
 * for any test's outgoing connection in the moment before the child bound it (EADDRINUSE in CI).
 */
async function freePorts(n: number): Promise<number[]> {
  const servers: net.Server[] = [];
  while (servers.length < n) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const s = await new Promise<net.Server | undefined>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(undefined));
      probe.listen(port, '127.0.0.1', () => resolve(probe));
    });
    if (s) servers.push(s);
  }
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}

async function waitForHealthy(client: WikiClient, procs: Proc[]): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    for (const p of procs) {
      if (p.child.exitCode !== null) throw new Error(`${p.name} exited with ${p.child.exitCode} during startup:\n${p.stderr}`);
    }
    try {
      const r = await client.get('/healthz');
      last = `${r.status} ${r.text}`;
      if (r.status === 200 && r.json().status === 'ok') return;
    } catch (e) {
      last = String(e);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not healthy after ${STARTUP_TIMEOUT_MS} ms: ${last}\n${procs.map((p) => `${p.name}: ${p.stderr}`).join('\n')}`);
}

for (const backend of testBackends()) {
  describe(`separate processes on ${backend}`, () => {
    let testEnv: TestEnv;
    const procs: Proc[] = [];
    let client: WikiClient;

    before(async () => {
      testEnv = await makeTestEnv(backend);
      const [gatewayPort, ...grpcPorts] = await freePorts(1 + SERVICES.length);
      const grpcPort = Object.fromEntries(SERVICES.map((s, i) => [s, grpcPorts[i]!])) as Record<(typeof SERVICES)[number], number>;
      // Content first: it owns the first start (the Main Page).
      for (const svc of SERVICES) {
        // Search consumes content's change feed.
        const env: NodeJS.ProcessEnv = { ...testEnv.env, [`${svc.toUpperCase()}_GRPC_PORT`]: String(grpcPort[svc]), CONTENT_GRPC_ADDR: `127.0.0.1:${grpcPort.content}` };
        if (backend === 'embedded') {
          env.DATA_DIR = path.join(testEnv.dataDir, svc);
          fs.mkdirSync(env.DATA_DIR, { recursive: true });
        }
        procs.push(spawnEntry(svc, `services/${svc}/src/main.ts`, env));
      }
      procs.push(
        spawnEntry('gateway', 'gateway/src/main.ts', {
          ...testEnv.env,
          PORT: String(gatewayPort),
          HOST: '127.0.0.1',
          CONTENT_GRPC_ADDR: `127.0.0.1:${grpcPort.content}`,
          AUTH_GRPC_ADDR: `127.0.0.1:${grpcPort.auth}`,
          SEARCH_GRPC_ADDR: `127.0.0.1:${grpcPort.search}`,
        }),
      );
      client = new WikiClient(`http://127.0.0.1:${gatewayPort}`);
      await waitForHealthy(client, procs);
    });

    after(async () => {
      for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await Promise.all(procs.map((p) => p.exited));
      await testEnv?.cleanup();
    });

    test('/healthz sees the three services', async () => {
      const { status, services } = (await client.get('/healthz')).json();
      assert.deepEqual({ status, services }, { status: 'ok', services: { auth: 'serving', content: 'serving', search: 'serving' } });
    });

    test('a REST and an action request go through the gateway to the services', async () => {
      const rest = await client.rest('/v1/page/Main_Page');
      assert.equal(rest.status, 200);
      assert.equal(rest.json().title, 'Main Page');
      const action = await client.api({ action: 'query', prop: 'revisions', rvprop: 'ids|content', rvslots: 'main', titles: 'Main Page', formatversion: '2' });
      const page = action.json().query.pages[0];
      assert.equal(page.revisions[0].revid, rest.json().latest.id);
      assert.equal(page.revisions[0].slots.main.content, rest.json().source);
      const tokens = await client.api({ action: 'query', meta: 'tokens' });
      assert.equal(tokens.json().query.tokens.csrftoken, '+\\', 'the auth service answers');
    });

    test('SIGTERM: the gateway, then each service, exits 0', async () => {
      // The gateway goes first so no request reaches a service that is already gone.
      for (const p of [...procs].reverse()) {
        p.child.kill('SIGTERM');
        const { code, signal } = await p.exited;
        assert.equal(signal, null, `${p.name} was not killed by a signal`);
        assert.equal(code, 0, `${p.name} exits 0 after SIGTERM; stderr:\n${p.stderr}`);
      }
    });
  });
}

describe('bad configuration', () => {
  let testEnv: TestEnv;
  before(async () => {
    testEnv = await makeTestEnv('embedded');
  });
  after(() => testEnv?.cleanup());

  const cases: { name: string; entry: string; env: NodeJS.ProcessEnv; message: string }[] = [
    { name: 'content', entry: 'services/content/src/main.ts', env: { CONTENT_GRPC_PORT: 'abc' }, message: 'CONTENT_GRPC_PORT="abc" is not an integer' },
    { name: 'auth', entry: 'services/auth/src/main.ts', env: { AUTH_GRPC_PORT: '70000' }, message: 'AUTH_GRPC_PORT=70000 is out of range' },
    { name: 'search', entry: 'services/search/src/main.ts', env: { DATABASE_URL: 'mysql://db/wiki' }, message: 'DATABASE_URL must use postgres or postgresql://' },
    { name: 'gateway', entry: 'gateway/src/main.ts', env: { PORT: 'eighty' }, message: 'PORT="eighty" is not an integer' },
  ];
  for (const c of cases) {
    test(`${c.name}: ${Object.entries(c.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} → non-zero exit, a clear message, no stack trace`, async () => {
      const p = spawnEntry(c.name, c.entry, { ...testEnv.env, DATA_DIR: path.join(testEnv.dataDir, c.name), ...c.env });
      const { code } = await p.exited;
      assert.notEqual(code, 0);
      assert.ok(p.stderr.includes('invalid configuration'), p.stderr);
      assert.ok(p.stderr.includes(c.message), p.stderr);
      assert.doesNotMatch(p.stderr, /^\s+at .+:\d+:\d+\)?$/m, `no stack trace in:\n${p.stderr}`);
    });
  }
});
