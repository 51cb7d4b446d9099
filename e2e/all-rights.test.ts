/*
 * PermissionManager::getAllPermissions: the values list=allusers&aurights, list=users' rights
 * filters and prop=contributors&pcrights accept. Every right a default group holds must be one
 * of them, or a filter on it answers "Unrecognized value" although users hold it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_GROUP_PERMISSIONS } from '@quire/auth/rights';
import { ALL_RIGHTS } from '../gateway/src/action/query/contributors.js';

test('every right of a default group is a value of the rights filters', () => {
  const known = new Set<string>(ALL_RIGHTS);
  const granted = new Set(Object.values(DEFAULT_GROUP_PERMISSIONS).flatMap((rights) => Object.keys(rights)));
  assert.deepEqual(
    [...granted].filter((r) => !known.has(r)),
    [],
  );
  assert.ok(known.has('mwoauthmanageconsumer'), 'the OAuth rights Quire grants');
});
