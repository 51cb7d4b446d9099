/*
 * Test support for the REST pipeline: gateway deps whose service clients implement only what a
 * test needs, and a real router served on an ephemeral port.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@quire/kit';
import type { AuthClient, Clients, ContentClient, SearchClient } from '../clients/index.js';
import type { OAuthClient } from '../clients/oauth.js';
import type { ListsClient } from '../clients/lists.js';
import type { DumpsClient } from '../clients/dumps.js';
import type { NotificationsClient } from '../clients/notifications.js';
import type { AccountClient } from '../clients/account.js';
import type { ArchiveClient } from '../clients/archive.js';
import { loadGatewayConfig } from '../config.js';
import type { GatewayDeps } from '../context.js';
import { SiteCache } from '../site.js';
import { REST_PATH } from './paths.js';
import { createRestRouter, type RestRouterOptions } from './router.js';

export interface FakeClients {
  content?: Partial<ContentClient>;
  auth?: Partial<AuthClient>;
  oauth?: Partial<OAuthClient>;
  search?: Partial<SearchClient>;
  lists?: Partial<ListsClient>;
  dumps?: Partial<DumpsClient>;
  notifications?: Partial<NotificationsClient>;
  account?: Partial<AccountClient>;
  archive?: Partial<ArchiveClient>;
}

/** Deps for tests; a service method a test did not provide fails loudly when called. */
export function testDeps(clients: FakeClients = {}, env: NodeJS.ProcessEnv = {}): GatewayDeps {
  const wrap = <T extends object>(service: string, impl: Partial<T> = {}): T =>
    new Proxy(impl, {
      // `then` stays undefined so the client is never mistaken for a promise.
      get: (target, name) => Reflect.get(target, name) ?? (name === 'then' ? undefined : () => Promise.reject(new Error(`test did not provide ${service}.${String(name)}`))),
    }) as T;
  // Unless a test says otherwise the caller is anonymous with MediaWiki's default rights of "*".
  const auth: Partial<AuthClient> = {
    // No tokenValid: the token is checked by checkToken (a test's own, when it gives one).
    resolveSession: async (_sid: string, ip: string) =>
      ({
        user: { id: 0, name: ip, anonymous: true, groups: ['*'], rights: ['read', 'edit', 'createpage', 'createtalk', 'writeapi'] },
        sessionValid: false,
      }) as Awaited<ReturnType<AuthClient['resolveSession']>>,
    ...clients.auth,
  };
  const all: Clients = {
    content: wrap<ContentClient>('content', clients.content),
    auth: wrap<AuthClient>('auth', auth),
    oauth: wrap<OAuthClient>('oauth', clients.oauth),
    search: wrap<SearchClient>('search', clients.search),
    archive: wrap<ArchiveClient>('archive', clients.archive),
    lists: wrap<ListsClient>('lists', clients.lists),
    dumps: wrap<DumpsClient>('dumps', clients.dumps),
    notifications: wrap<NotificationsClient>('notifications', clients.notifications),
    account: wrap<AccountClient>('account', clients.account),
  };
  return {
    clients: all,
    config: loadGatewayConfig({ WIKI_SERVER: 'http://wiki.test', ...env }),
    log: createLogger('rest-test', 'silent'),
    site: new SiteCache(all.content),
  };
}

export interface TestServer {
  /** Base URL of the REST API, e.g. http://127.0.0.1:12345/w/rest.php */
  rest: string;
  close(): Promise<void>;
}

/** Serves createRestRouter at /w/rest.php on an ephemeral port. */
export async function serveRest(deps: GatewayDeps, opts?: RestRouterOptions): Promise<TestServer> {
  const app = express();
  app.set('etag', false);
  app.use(REST_PATH, createRestRouter(deps, opts));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    rest: `http://127.0.0.1:${port}${REST_PATH}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
