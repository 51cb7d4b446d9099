/* wiki.auth.v1.AccountService over gRPC: session authentication age, second-factor status (with its log entry) and verification. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, ServiceError, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { AuthServiceClient, LoginResponse_Status } from '@quire/proto/wiki/auth/v1/auth';
import { AccountServiceClient } from '@quire/proto/wiki/auth/v1/account';
import { AuthClient } from '@quire/gateway/clients/index';
import { AccountClient } from '@quire/gateway/clients/account';
import { authService } from './server.js';
import { totpAt } from './totp.js';

for (const backend of testBackends()) {
  describe(`auth AccountService (${backend})`, () => {
    let env: TestEnv;
    let svc: RunningService;
    let auth: AuthClient;
    let account: AccountClient;

    before(async () => {
      env = await makeTestEnv(backend, { AUTH_GRPC_PORT: '0', AUTH_TOTP_THROTTLE: '3/60' });
      svc = await startService(authService, env.env);
      auth = new AuthClient(makeClient(AuthServiceClient, svc.address));
      account = new AccountClient(makeClient(AccountServiceClient, svc.address));
      assert.equal((await auth.createAccount({ username: 'Dana', password: 'danapass123456', ip: '10.0.0.1' })).ok, true);
      assert.equal((await auth.createAccount({ username: 'Eve', password: 'evepass1234567', ip: '10.0.0.1' })).ok, true);
    });
    after(async () => {
      auth.close();
      account.close();
      await svc.stop();
      await env.cleanup();
    });

    test('GetSessionAuthentication: a fresh login, an anonymous session, a bot-password session', async () => {
      const login = await auth.login({ sessionId: '', username: 'Dana', password: 'danapass123456', ip: '10.0.0.2', botPasswordAllowed: false, remember: false });
      assert.equal(login.status, LoginResponse_Status.PASS);
      const s = await account.getSessionAuthentication(login.sessionId);
      assert.equal(s.userId, login.user!.id);
      assert.ok(s.secondsSinceAuthentication <= 5);
      assert.equal(s.canReauthenticate, true);
      assert.deepEqual(await account.getSessionAuthentication(''), { userId: 0, secondsSinceAuthentication: 0, canReauthenticate: true });
      const bp = await auth.createBotPassword({ user: 'Dana', appId: 'tool', grants: ['basic'] });
      const botLogin = await auth.login({ sessionId: '', username: 'Dana@tool', password: bp.password, ip: '10.0.0.2', botPasswordAllowed: true, remember: false });
      assert.equal((await account.getSessionAuthentication(botLogin.sessionId)).canReauthenticate, false);
    });

    test('GetTwoFactorStatus and VerifyTwoFactor follow the TOTP secret; oath/verify goes to the log outbox', async () => {
      assert.deepEqual(await account.getTwoFactorStatus({ userName: 'Eve', logVerify: false, performerId: 0, performerName: '', reason: '' }), { registered: true, enabled: false });
      assert.deepEqual(await account.getTwoFactorStatus({ userName: 'No such user', logVerify: true, performerId: 0, performerName: '', reason: '' }), { registered: false, enabled: false });
      assert.deepEqual(await account.verifyTwoFactor('Eve', '{"token":"123456"}'), { enabled: false, valid: false, module: '' });
      const { secret } = await auth.enableTotp({ user: 'Eve' });
      assert.deepEqual(await account.getTwoFactorStatus({ userName: 'eve', logVerify: true, performerId: 0, performerName: 'Maintenance script', reason: 'checking' }), {
        registered: true,
        enabled: true,
      });
      const now = Math.floor(Date.now() / 1000);
      assert.deepEqual(await account.verifyTwoFactor('Eve', JSON.stringify({ token: totpAt(secret, now) })), { enabled: true, valid: true, module: 'totp' });
      assert.deepEqual(await account.verifyTwoFactor('Eve', 'not json'), { enabled: true, valid: false, module: 'totp' });
      const rows = await svc.runtime.db.query<{ log_type: string; log_action: string; target_dbkey: string; comment: string; publish: boolean }>(
        `SELECT log_type, log_action, target_dbkey, comment, publish FROM auth.log_outbox WHERE log_type = 'oath'`,
      );
      assert.deepEqual(rows.rows, [{ log_type: 'oath', log_action: 'verify', target_dbkey: 'Eve', comment: 'checking', publish: false }]);
    });

    test('VerifyTwoFactor is refused with ratelimited once the badoath limit is reached', async () => {
      const { secret } = await auth.enableTotp({ user: 'Dana' });
      assert.ok(secret);
      // Three failed second factors at login reach the 3/60 limit.
      for (let i = 0; i < 3; i++) {
        const l = await auth.login({ sessionId: '', username: 'Dana', password: 'danapass123456', ip: '10.0.0.3', botPasswordAllowed: false, remember: false });
        await auth.continueLogin({ sessionId: l.sessionId, totpCode: '000000', ip: '10.0.0.3' });
      }
      await assert.rejects(account.verifyTwoFactor('Dana', '{"token":"000000"}'), (e: unknown) => e instanceof ServiceError && e.mwCode === 'ratelimited');
    });
  });
}
