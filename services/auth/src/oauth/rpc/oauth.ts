/* wiki.auth.v1.OAuthService: translates the proto messages to the OAuth domain and back. */
import type { AsyncHandlers } from '@quire/kit';
import type { OAuthServiceService } from '@quire/proto/wiki/auth/v1/oauth';
import { toConsumer, type Consumers } from '../domain/consumers.js';
import type { OAuth1 } from '../domain/oauth1.js';
import type { OAuth2 } from '../domain/oauth2.js';
import type { OAuthRequests } from '../domain/requests.js';

type Handlers = AsyncHandlers<typeof OAuthServiceService>;

export function oauthHandlers(consumers: Consumers, oauth1: OAuth1, oauth2: OAuth2, requests: OAuthRequests): Handlers {
  return {
    proposeConsumer: (req) => consumers.propose(req, (c, a) => oauth2.ownerToken(c, a)),
    async listConsumers(req) {
      return { consumers: await consumers.list(req.ownerId, req.stage) };
    },
    async getConsumer(req) {
      return toConsumer(await consumers.byKey(req.key));
    },
    updateConsumer: (req) => consumers.update(req),
    manageConsumer: (req) => consumers.manage(req),
    initiateOAuth1: (req) => oauth1.initiate(req),
    async describeRequestToken(req) {
      return toConsumer(await oauth1.describe(req.consumerKey, req.requestToken));
    },
    authorizeOAuth1: (req) => oauth1.authorize(req),
    exchangeOAuth1: (req) => oauth1.exchange(req),
    async identifyOAuth1(req) {
      return { jwt: await requests.identify(req) };
    },
    authorizeOAuth2: (req) => oauth2.authorize(req),
    issueOAuth2Token: (req) => oauth2.token(req),
    resolveOAuthRequest: (req) => requests.resolve(req),
    async listAuthorizations(req) {
      return { authorizations: await requests.listAuthorizations(req.userId) };
    },
    async revokeAuthorization(req) {
      await requests.revoke(req.userId, req.consumerKey);
      return {};
    },
  };
}
