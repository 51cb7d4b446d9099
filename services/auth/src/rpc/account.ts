/* wiki.auth.v1.AccountService: translates the proto messages for domain/security.ts. */
import { rateLimitRefusals, resourceExhausted } from '@quire/kit';
import type { AsyncHandlers } from '@quire/kit';
import type { AccountServiceService } from '@quire/proto/wiki/auth/v1/account';
import type { AccountSecurity } from '../domain/security.js';

export function accountServiceHandlers(security: AccountSecurity): AsyncHandlers<typeof AccountServiceService> {
  return {
    async getSessionAuthentication(req) {
      return security.sessionAuthentication(req.sessionId);
    },
    async getTwoFactorStatus(req) {
      return security.twoFactorStatus(req);
    },
    async verifyTwoFactor(req) {
      const r = await security.verifyTwoFactor(req.userName, req.dataJson);
      if (r.limited) rateLimitRefusals.inc({ action: 'badoath' });
      if (r.limited)
        throw resourceExhausted(
          'ratelimited',
          'As an anti-abuse measure, you are limited from performing this action too many times in a short space of time, and you have exceeded this limit. Please try again in a few minutes.',
        );
      return { enabled: r.enabled, valid: r.valid, module: r.module };
    },
  };
}
