import { makeClient, startService } from '@quire/kit';
import { makeTestEnv } from '@quire/kit/testing';
import { AuthServiceClient } from '@quire/proto/wiki/auth/v1/auth';
import { contentService } from '@quire/content/server';
import { AuthClient } from '@quire/gateway/clients/index';
import { startStack } from '../scripts/stack.js';
const down = Number(process.argv[2] ?? 30000);
const env = await makeTestEnv('embedded', { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
const stack = await startStack(env.env);
const content = stack.services.find((s) => s.name === 'content')!;
const authSvc = stack.services.find((s) => s.name === 'auth')!;
const auth = new AuthClient(makeClient(AuthServiceClient, authSvc.address));
await content.stop();
await auth.createAccount({ username: 'Probe', password: 'probepass123456', ip: '10.0.0.9' });
await new Promise((r) => setTimeout(r, down));
const t0 = Date.now();
const again = await startService(contentService, { ...env.env, CONTENT_GRPC_HOST: '127.0.0.1', CONTENT_GRPC_PORT: String(content.port), LOG_LEVEL: 'silent' });
stack.services[stack.services.indexOf(content)] = again;
for (;;) {
  const r = await authSvc.runtime.db.query<{ n: number }>(`SELECT count(*)::int n FROM auth.log_outbox WHERE delivered_at IS NULL`);
  if (r.rows[0]!.n === 0) break;
  await new Promise((r) => setTimeout(r, 50));
}
console.log(`down ${down} ms: delivered ${Date.now() - t0} ms after restart`);
const t1 = Date.now();
auth.close();
await stack.stop();
console.log(`stack stopped in ${Date.now() - t1} ms`);
await env.cleanup();
