/* The OAuth part of the auth service, assembled: rpc/ → domain/ → store/. */
import type { KvStore, Db } from '@quire/kit';
import type { Accounts } from '../domain/accounts.js';
import type { SessionStore } from '../store/sessions.js';
import { Consumers } from './domain/consumers.js';
import { OAuth1 } from './domain/oauth1.js';
import { OAuth2 } from './domain/oauth2.js';
import { OAuthRequests } from './domain/requests.js';
import { oauthHandlers } from './rpc/oauth.js';
import { OAuthStore } from './store/oauth.js';

export function createOAuth(o: { db: Db; kv: KvStore; accounts: Accounts; sessions: SessionStore; secretKey: string }) {
  const ctx = { store: new OAuthStore(o.db), accounts: o.accounts, secretKey: o.secretKey };
  const consumers = new Consumers(ctx);
  const oauth1 = new OAuth1(ctx, consumers, o.kv);
  const oauth2 = new OAuth2(ctx, consumers, o.kv);
  const requests = new OAuthRequests(ctx, consumers, oauth1, oauth2, o.sessions);
  return { handlers: oauthHandlers(consumers, oauth1, oauth2, requests) };
}
