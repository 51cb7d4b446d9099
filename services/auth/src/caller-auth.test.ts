/*
 * The auth service answers only callers that hold the wiki's secret: a local process that finds the
 * port (ss shows it) cannot call ChangeUserGroups and make itself an administrator.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { credentials, Metadata, status as GrpcStatus, type ServiceError as GrpcError } from '@grpc/grpc-js';
import { makeClient, SERVICE_AUTH_HEADER, signServiceCall, serviceCallKey, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, type TestEnv } from '@quire/kit/testing';
import { AuthServiceClient, type ChangeUserGroupsResponse } from '@quire/proto/wiki/auth/v1/auth';
import { HealthClient, HealthCheckResponse_ServingStatus, type HealthCheckResponse } from '@quire/proto/grpc/health/v1/health';
import { AuthClient } from '@quire/gateway/clients/index';
import { authService } from './server.js';

describe('gRPC caller authentication (auth service)', () => {
  let env: TestEnv;
  let svc: RunningService;
  let auth: AuthClient;

  before(async () => {
    env = await makeTestEnv('embedded', { AUTH_GRPC_PORT: '0' });
    svc = await startService(authService, env.env);
    auth = new AuthClient(makeClient(AuthServiceClient, svc.address, {}, env.env.SECRET_KEY));
    assert.equal((await auth.createAccount({ username: 'Mallory', password: 'mallorypass123456', ip: '10.0.0.9' })).ok, true);
  });
  after(async () => {
    auth.close();
    await svc.stop();
    await env.cleanup();
  });

  /** A call over the network as another process makes it: a plain grpc-js client, with the metadata given. */
  function rawChangeGroups(metadata: Metadata): Promise<ChangeUserGroupsResponse> {
    const raw = new AuthServiceClient(svc.address, credentials.createInsecure());
    return new Promise<ChangeUserGroupsResponse>((resolve, reject) =>
      raw.changeUserGroups({ username: 'Mallory', userId: 0, add: [{ group: 'sysop', expiry: 'infinity' }], remove: [], performerId: 0, reason: '', tags: [] }, metadata, (err, res) => {
        raw.close();
        if (err) reject(err);
        else resolve(res);
      }),
    );
  }
  const unauthenticated = (e: unknown) => (e as GrpcError).code === GrpcStatus.UNAUTHENTICATED;
  const mallorysGroups = async () => (await auth.getUsers({ names: ['Mallory'] })).users[0]!.user!.groups;

  test("a caller without proof, with a wrong key, a stale or another method's proof is refused, and nothing changes", async () => {
    const path = '/wiki.auth.v1.AuthService/ChangeUserGroups';
    const now = Math.floor(Date.now() / 1000);
    const attempts: Array<[string, string | undefined]> = [
      ['no proof', undefined],
      ['garbage', 'v1.0.x'],
      ['another key', signServiceCall(serviceCallKey('not-the-wiki-secret-0123456789abcdef'), path, now)],
      ['stale', signServiceCall(serviceCallKey(env.env.SECRET_KEY!), path, now - 3600)],
      ['another method', signServiceCall(serviceCallKey(env.env.SECRET_KEY!), '/wiki.auth.v1.AuthService/GetUsers', now)],
    ];
    for (const [what, proof] of attempts) {
      const md = new Metadata();
      if (proof) md.set(SERVICE_AUTH_HEADER, proof);
      await assert.rejects(rawChangeGroups(md), unauthenticated, what);
    }
    assert.ok(!(await mallorysGroups()).includes('sysop'));
  });

  test('a caller with the wiki secret is answered; health checks need no proof', async () => {
    const md = new Metadata();
    md.set(SERVICE_AUTH_HEADER, signServiceCall(serviceCallKey(env.env.SECRET_KEY!), '/wiki.auth.v1.AuthService/ChangeUserGroups'));
    await rawChangeGroups(md);
    assert.ok((await mallorysGroups()).includes('sysop'));
    const health = new HealthClient(svc.address, credentials.createInsecure());
    const r = await new Promise<HealthCheckResponse>((resolve, reject) => health.check({ service: '' }, (err, res) => (err ? reject(err) : resolve(res))));
    health.close();
    assert.equal(r.status, HealthCheckResponse_ServingStatus.SERVING);
  });
});
