/* paraminfo's description of one parameter, as ParamValidator::getParamInfo gives it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paramInfo } from './paraminfo.js';
import { createDefaultRegistry } from './registry.js';

const registry = createDefaultRegistry();
const query = registry.get('action', 'query')!;

test('multi-value limits: `limit` is the high limit for callers with apihighlimits, as the reference wiki answers a sysop', () => {
  const titles = query.params.titles!;
  assert.deepEqual(
    [paramInfo(query, 'titles', titles, registry), paramInfo(query, 'titles', titles, registry, true)].map((i) => [i.lowlimit, i.highlimit, i.limit]),
    [
      [50, 500, 50],
      [50, 500, 500],
    ],
  );
});

test('allowsduplicates for the expiries of protect and userrights', () => {
  for (const name of ['protect', 'userrights']) {
    const m = registry.get('action', name)!;
    assert.equal(paramInfo(m, 'expiry', m.params.expiry!, registry).allowsduplicates, true, name);
  }
  assert.equal(paramInfo(query, 'titles', query.params.titles!, registry).allowsduplicates, undefined);
});
