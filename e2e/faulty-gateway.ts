/*
 * A gateway built as server.ts builds it (its real app, request ids in front) over real service
 * clients of a running wiki, with the content client failing while `fault.failing` is set (as a
 * lost connection or a bug below the handler would). Used by the fault and request-id tests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@quire/kit';
import { failingWhen, type FaultSwitch } from '@quire/kit/faults';
import { createGatewayApp } from '@quire/gateway/app';
import { closeClients, connectClients } from '@quire/gateway/clients/index';
import { loadGatewayConfig } from '@quire/gateway/config';
import { SiteCache } from '@quire/gateway/site';
import { observeRequests } from '@quire/gateway/observability';
import type { GatewayDeps } from '@quire/gateway/context';
import { WikiClient, type TestWiki } from './harness.js';

export async function startFaultyGateway(wiki: TestWiki, fault: FaultSwitch, log: Logger = createLogger('gateway-faults', 'silent')): Promise<{ gateway: WikiClient; close(): Promise<void> }> {
  const addrs = Object.fromEntries(wiki.stack.services.map((s) => [s.name, s.address])) as { auth: string; content: string; search: string };
  const clients = connectClients(addrs);
  const content = failingWhen(clients.content, 'content', fault);
  const deps: GatewayDeps = {
    clients: { ...clients, content },
    config: { ...loadGatewayConfig({ WIKI_SERVER: 'http://gateway.test', DATA_DIR: wiki.testEnv.dataDir, SECRET_KEY: wiki.testEnv.env.SECRET_KEY }), secretKey: wiki.testEnv.env.SECRET_KEY! },
    log,
    site: new SiteCache(content),
  };
  const server = http.createServer(observeRequests(createGatewayApp(deps, addrs)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    gateway: new WikiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      closeClients(clients);
    },
  };
}
