import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { User } from '../../clients/types.js';
import { centralUserInfo } from './centralids.js';
import { userInfo } from './userinfo.js';
import { stripMeta } from './testing.js';

const ADMIN: User = { id: 2, name: 'Admin', anonymous: false, groups: ['*', 'user', 'bureaucrat', 'sysop'], rights: ['read', 'userrights', 'noratelimit'] };
const ANON: User = { id: 0, name: '127.0.0.1', anonymous: true, groups: ['*'], rights: ['read'] };

test('centralids: the local provider, attached here when registered, attachedwiki only for this wiki id', () => {
  assert.deepEqual(stripMeta(centralUserInfo(3, undefined, 'quire')), { centralids: { local: 3 }, attachedlocal: { local: true } });
  assert.deepEqual(stripMeta(centralUserInfo(3, 'quire', 'quire')), { centralids: { local: 3 }, attachedlocal: { local: true }, attachedwiki: { local: true } });
  assert.deepEqual(stripMeta(centralUserInfo(3, 'otherwiki', 'quire')), { centralids: { local: 3 }, attachedlocal: { local: true }, attachedwiki: { local: false } });
  assert.deepEqual(stripMeta(centralUserInfo(0, '*', 'quire')), { centralids: { local: 0 }, attachedlocal: { local: false }, attachedwiki: { local: false } });
});

test("userinfo: changeablegroups, theoreticalratelimits despite noratelimit, unreadcount, latestcontrib, in MediaWiki's order", () => {
  const props = ['changeablegroups', 'ratelimits', 'theoreticalratelimits', 'unreadcount', 'centralids', 'latestcontrib'];
  const admin = stripMeta(userInfo(ADMIN, props, undefined, { wikiId: 'quire', attachedWiki: 'quire', latestContrib: '2026-11-25T15:09:27Z' })) as Record<string, unknown>;
  assert.deepEqual(Object.keys(admin), ['id', 'name', 'changeablegroups', 'ratelimits', 'theoreticalratelimits', 'unreadcount', 'centralids', 'attachedlocal', 'attachedwiki', 'latestcontrib']);
  const all = ['bot', 'sysop', 'interface-admin', 'bureaucrat', 'suppress'];
  assert.deepEqual(admin.changeablegroups, { add: all, remove: all, 'add-self': [], 'remove-self': [] });
  assert.deepEqual(admin.ratelimits, {}, 'noratelimit: nothing applies');
  assert.deepEqual((admin.theoreticalratelimits as Record<string, unknown>).edit, { user: { hits: 90, seconds: 60 } });
  const anon = stripMeta(userInfo(ANON, props, undefined, { wikiId: 'quire' })) as Record<string, unknown>;
  assert.deepEqual(anon.changeablegroups, { add: [], remove: [], 'add-self': [], 'remove-self': [] });
  assert.deepEqual((anon.theoreticalratelimits as Record<string, unknown>).edit, { ip: { hits: 8, seconds: 60 } });
  assert.equal(anon.unreadcount, 0);
  assert.equal('latestcontrib' in anon, false);
  assert.deepEqual(anon.attachedlocal, { local: false });
});
