/*
 * The whole wiki in one process: the three services (each its own gRPC server on loopback) and
 * the gateway, sharing the embedded PGlite of DATA_DIR when DATABASE_URL is unset. This is what
 * `npm start` runs; deploy/ runs the same services as separate processes instead.
 */
import { createLogger, startService, type RunningService } from '@quire/kit';
import { authService } from '@quire/auth/server';
import { contentService } from '@quire/content/server';
import { searchService } from '@quire/search/server';
import { startGateway, type RunningGateway } from '@quire/gateway/server';

export interface Stack {
  gateway: RunningGateway;
  services: RunningService[];
  url: string;
  stop(): Promise<void>;
}

export async function startStack(env: NodeJS.ProcessEnv = process.env): Promise<Stack> {
  const log = createLogger('quire', env.LOG_LEVEL ?? 'info');
  // Services bind ephemeral loopback ports unless told otherwise; the gateway is given them.
  const svcEnv = { AUTH_GRPC_PORT: '0', CONTENT_GRPC_PORT: '0', SEARCH_GRPC_PORT: '0', ...env };
  const services: RunningService[] = [];
  try {
    // Content first: it owns the first start (Main Page) and, embedded, opens PGlite for all.
    for (const mod of [contentService, authService, searchService]) {
      services.push(await startService(mod, svcEnv, log.child({ svc: mod.name })));
    }
    const addr = (name: string) => services.find((s) => s.name === name)!.address;
    const gateway = await startGateway(
      { ...env, AUTH_GRPC_ADDR: addr('auth'), CONTENT_GRPC_ADDR: addr('content'), SEARCH_GRPC_ADDR: addr('search') },
      log.child({ svc: 'gateway' }),
    );
    let stopping: Promise<void> | undefined;
    return {
      gateway,
      services,
      url: gateway.url,
      stop() {
        stopping ??= (async () => {
          await gateway.stop();
          for (const s of [...services].reverse()) await s.stop();
        })();
        return stopping;
      },
    };
  } catch (e) {
    for (const s of services.reverse()) await s.stop().catch(() => undefined);
    throw e;
  }
}
