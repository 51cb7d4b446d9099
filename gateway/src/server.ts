import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createLogger, resolveSecretKey, type Logger } from '@quire/kit';
import { connectClients, closeClients } from './clients/index.js';
import { loadGatewayConfig } from './config.js';
import { SiteCache } from './site.js';
import { createGatewayApp } from './app.js';
import { answerFromCache, ChangeFeedFollower, ResponseCache } from './cache/response-cache.js';
import type { GatewayDeps } from './context.js';
import { observeRequests } from './observability.js';
import { withRequestServer } from './request-server.js';

export interface RunningGateway {
  url: string;
  port: number;
  deps: GatewayDeps;
  stop(): Promise<void>;
}

/** Starts the gateway: HTTP server on PORT, gRPC clients to the three services. */
export async function startGateway(env: NodeJS.ProcessEnv = process.env, log: Logger = createLogger('gateway')): Promise<RunningGateway> {
  const config = loadGatewayConfig(env);
  // The same key as the services (Special:RunJobs checks signatures made with the wiki's secret).
  config.secretKey = resolveSecretKey(path.resolve(config.dataDir), config.secretKey || undefined);
  const addrs = { auth: config.authAddr, content: config.contentAddr, search: config.searchAddr };
  const clients = connectClients(addrs, log, config.secretKey);
  const deps: GatewayDeps = { clients, config, log, site: new SiteCache(clients.content) };
  const readCache = new ResponseCache();
  const feed = new ChangeFeedFollower(clients.content, readCache, log).start();
  const app = createGatewayApp(deps, addrs, readCache);
  const server = http.createServer({ keepAliveTimeout: 65_000 }, observeRequests(withRequestServer(config, answerFromCache(readCache, app)), { externalRequestIds: config.allowExternalRequestId }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // With PORT=0 (tests) the public URL follows the port actually bound.
  if (!env.WIKI_SERVER) config.server = `http://localhost:${port}`;
  return {
    url: config.server,
    port,
    deps,
    async stop() {
      // Stop accepting, let in-flight requests finish, then drop idle keep-alive sockets.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), 10_000);
      timer.unref();
      await closed;
      clearTimeout(timer);
      feed.stop();
      // Edit counts still collected are sent before the connections close.
      await clients.auth.flushEditCounts();
      closeClients(clients);
    },
  };
}
