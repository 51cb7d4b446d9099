/*
 * Account security questions of the action API: how recently a session authenticated
 * (AuthManager::securitySensitiveOperationStatus) and a user's second factor (OATHAuth's
 * meta=oath and action=oathvalidate). Quire's one OATH module is TOTP.
 */
import type { SessionStore } from '../store/sessions.js';
import type { UserStore } from '../store/users.js';
import type { LogOutbox } from '../store/logoutbox.js';
import type { Throttler } from '../store/throttle.js';
import { canonicalUserName } from '../names.js';
import { verifyTotp } from '../totp.js';
import type { Performer } from './logentries.js';

export interface SecurityDeps {
  users: UserStore;
  sessions: SessionStore;
  outbox: LogOutbox;
  totpThrottle: Throttler;
  performer(id: number, name: string): Promise<Performer>;
}

export class AccountSecurity {
  constructor(private readonly o: SecurityDeps) {}

  async sessionAuthentication(sessionId: string): Promise<{ userId: number; secondsSinceAuthentication: number; canReauthenticate: boolean }> {
    const session = sessionId ? await this.o.sessions.get(sessionId) : null;
    if (!session || session.userId <= 0) return { userId: 0, secondsSinceAuthentication: 0, canReauthenticate: true };
    // A login replaces the session, so its creation is the last authentication.
    const seconds = Math.max(0, Math.floor((Date.now() - session.createdAt) / 1000));
    return { userId: session.userId, secondsSinceAuthentication: seconds, canReauthenticate: !session.botPassword && !session.oauthGrants };
  }

  /** ApiQueryOATH: the status, and the oath/verify entry (a log entry only, no recent change) when asked. */
  async twoFactorStatus(req: { userName: string; logVerify: boolean; performerId: number; performerName: string; reason: string }): Promise<{ registered: boolean; enabled: boolean }> {
    const name = canonicalUserName(req.userName);
    const row = name ? await this.o.users.byName(name) : null;
    if (!row) return { registered: false, enabled: false };
    if (req.logVerify) {
      const performer = await this.o.performer(req.performerId, req.performerName);
      await this.o.users.tx(() =>
        this.o.outbox.append({
          type: 'oath',
          action: 'verify',
          performer: { id: performer.id, name: performer.name },
          targetName: row.name,
          comment: req.reason,
          params: {},
          bot: performer.bot,
          publish: false,
        }),
      );
    }
    return { registered: true, enabled: row.totp_secret !== null };
  }

  /** ApiOATHValidate: `ratelimited` while the user's badoath limit is reached (checked, not counted). */
  async verifyTwoFactor(userName: string, dataJson: string): Promise<{ limited: boolean; enabled: boolean; valid: boolean; module: string }> {
    const name = canonicalUserName(userName);
    const row = name ? await this.o.users.byName(name) : null;
    if (row && (await this.o.totpThrottle.exceeded([String(row.id)]))) return { limited: true, enabled: false, valid: false, module: '' };
    if (!row?.totp_secret) return { limited: false, enabled: false, valid: false, module: '' };
    let token = '';
    try {
      const data = JSON.parse(dataJson) as unknown;
      if (data && typeof data === 'object' && typeof (data as { token?: unknown }).token === 'string') token = (data as { token: string }).token;
    } catch {
      // FormatJson::decode failing leaves the data empty: not a valid code.
    }
    return { limited: false, enabled: true, valid: token !== '' && verifyTotp(row.totp_secret, token), module: 'totp' };
  }
}
