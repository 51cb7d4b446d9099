/*
 * API requests carrying OAuth credentials (the extension's SessionProvider): the user behind an
 * access token, limited to the authorization's grants and the user's own rights, with a session
 * that exists only for CSRF tokens. Its id and secret derive from the authorization (as the
 * extension hashes the acceptance into the session id), so tokens stay valid across requests and
 * OAuth 2.0 access tokens, and die with the authorization. The session id is never sent to a
 * client, so it cannot be used as a cookie.
 */
import crypto from 'node:crypto';
import { unauthenticated } from '@quire/kit';
import type { Authorization, ResolveOAuthRequestRequest, ResolveOAuthResponse, SignedRequest } from '@quire/proto/wiki/auth/v1/oauth';
import { implicitGroups } from '../../domain/accounts.js';
import { grantRights } from '../../grants.js';
import { rightsOf } from '../../rights.js';
import type { SessionStore } from '../../store/sessions.js';
import type { AcceptanceRow, ConsumerRow } from '../store/oauth.js';
import { AUTH_ONLY_GRANTS, toConsumer, usableBy, type Consumers, type OAuthContext } from './consumers.js';
import type { OAuth1 } from './oauth1.js';
import type { OAuth2 } from './oauth2.js';

function invalidAuthorization(reason: string): Error {
  return unauthenticated('mwoauth-invalid-authorization', `The authorization headers in your request are not valid: ${reason}`);
}

export class OAuthRequests {
  constructor(
    private readonly o: OAuthContext,
    private readonly consumers: Consumers,
    private readonly oauth1: OAuth1,
    private readonly oauth2: OAuth2,
    private readonly sessions: SessionStore,
  ) {}

  private sessionKey(purpose: string, acceptance: AcceptanceRow): string {
    return crypto.createHmac('sha256', this.o.secretKey).update(`oauth-${purpose}\n${acceptance.id}\n${acceptance.access_key}`).digest('base64url');
  }

  async resolve(req: ResolveOAuthRequestRequest): Promise<ResolveOAuthResponse> {
    let consumer: ConsumerRow;
    let acceptance: AcceptanceRow;
    let grants: string[];
    if (req.bearerToken || !req.signed) {
      const row = await this.oauth2.verifyBearer(req.bearerToken);
      const found = row?.acceptance_id ? await this.o.store.acceptanceById(row.acceptance_id) : null;
      const c = row ? await this.o.store.consumerById(row.consumer_id) : null;
      if (!row || !found || !c) throw invalidAuthorization('Invalid access token');
      consumer = c;
      acceptance = found;
      grants = row.grants;
    } else {
      try {
        ({ consumer, acceptance } = await this.oauth1.verifyAccess(req.signed));
      } catch (e) {
        throw invalidAuthorization((e as Error).message);
      }
      grants = acceptance.grants;
    }
    const row = await this.o.accounts.o.users.byId(acceptance.user_id);
    if (!row) throw unauthenticated('mwoauth-invalid-authorization-invalid-user', 'The authorization headers in your request are for a user that does not exist here (E008)');
    if (!usableBy(consumer, row.id)) {
      throw unauthenticated('mwoauth-invalid-authorization-not-approved', `The app that you are trying to connect seems to be set up incorrectly. Contact the author of "${consumer.name}" for help.`);
    }
    // Identification-only grants give no API rights at all ($wgGrantPermissions['mwoauth-authonly'] has none of the wiki's).
    const authOnly = grants.every((g) => AUTH_ONLY_GRANTS.includes(g));
    const effective = authOnly ? [] : grants;
    const user = await this.o.accounts.userRecord(row, req.ip, effective);
    if (authOnly) user.rights = [];
    const sessionId = `oauth${this.sessionKey('session', acceptance)}`.slice(0, 64);
    await this.sessions.put(sessionId, {
      userId: row.id,
      userName: row.name,
      secret: this.sessionKey('secret', acceptance),
      createdAt: acceptance.accepted_at.getTime(),
      oauthGrants: effective,
    });
    const profileJson = req.withProfile ? JSON.stringify(await this.statement({ ...acceptance, grants })) : '';
    return { user, sessionId, consumerKey: consumer.consumer_key, grants, profileJson };
  }

  /** UserStatementProvider::getUserStatement's profile part (iss, aud, exp, iat are the JWT's). */
  async statement(acceptance: AcceptanceRow): Promise<Record<string, unknown>> {
    const row = await this.o.accounts.o.users.byId(acceptance.user_id);
    if (!row) throw invalidAuthorization('Invalid user');
    const groups = [...implicitGroups(row), ...(await this.o.accounts.o.users.memberships(row.id)).map((m) => m.group)];
    const block = await this.o.accounts.o.users.activeBlock(row.id, '');
    const profile: Record<string, unknown> = {
      sub: String(row.id),
      username: row.name,
      editcount: Number(row.editcount),
      confirmed_email: row.email_authenticated !== null,
      blocked: block !== null,
      registered: row.registration.toISOString().replace(/[-:T]/g, '').slice(0, 14),
      groups,
      rights: rightsOf(this.o.accounts.o.perms, groups),
      grants: acceptance.grants,
    };
    if (acceptance.grants.includes('mwoauth-authonlyprivate') || grantRights(acceptance.grants).has('viewmyprivateinfo')) {
      profile.realname = row.realname;
      profile.email = row.email;
    }
    return profile;
  }

  /** Special:OAuth/identify for a request signed with an access token. */
  async identify(req: SignedRequest): Promise<string> {
    const { consumer, acceptance } = await this.oauth1.verifyAccess(req);
    if (!usableBy(consumer, acceptance.user_id)) throw invalidAuthorization(`The consumer "${consumer.name}" is not approved`);
    return this.oauth1.identify(req, await this.statement(acceptance), consumer);
  }

  async listAuthorizations(userId: number): Promise<Authorization[]> {
    const out: Authorization[] = [];
    for (const a of await this.o.store.acceptancesOf(userId)) {
      const c = await this.o.store.consumerById(a.consumer_id);
      if (c) out.push({ consumer: toConsumer(c), grants: a.grants, accepted: a.accepted_at.toISOString() });
    }
    return out;
  }

  /** Revokes a user's authorization of a consumer: its access tokens and sessions stop working. */
  async revoke(userId: number, consumerKey: string): Promise<void> {
    const c = await this.consumers.byKey(consumerKey);
    const a = await this.o.store.acceptance(c.id, userId);
    if (!a) return;
    await this.o.store.deleteAcceptance(a.id);
    await this.sessions.delete(`oauth${this.sessionKey('session', a)}`.slice(0, 64));
  }
}
