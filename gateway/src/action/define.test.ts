/*
 * defineModule's parameter types: compile-time assertions (npm run typecheck fails when an
 * inferred type drifts) and a run of the real validator showing that the values it produces are
 * the ones the types promise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineModule, defineParam, defineParams, type ContextOf, type ParamsOf } from './define.js';
import { validateParams, type ValidationEnv } from './params.js';
import type { ModuleDecl } from './types.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_proof?: T): void {}

const LIMIT = defineParam({ type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many.' });

const params = defineParams({
  title: { type: 'string', help: 'A title.' },
  page: { type: 'title', required: true, help: 'A page.' },
  text: { type: 'text', default: '', help: 'Text.' },
  pageid: { type: 'integer', help: 'An id.' },
  limit: { ...LIMIT, help: 'How many pages.' },
  namespace: { type: 'namespace', multi: true, help: 'Namespaces.' },
  ns: { type: 'namespace', default: 0, help: 'One namespace.' },
  prop: { type: ['ids', 'title', 'size'], multi: true, default: 'ids|title', help: 'Properties.' },
  dir: { type: ['ascending', 'descending'], default: 'ascending', help: 'Direction.' },
  show: { type: ['minor', '!minor'], help: 'Filter.' },
  minor: { type: 'boolean', help: 'Minor edit.' },
  watch: { type: 'boolean', default: false, help: 'Watch.' },
  start: { type: 'timestamp', help: 'Start.' },
  user: { type: 'user', userTypes: ['name'], help: 'A user.' },
  users: { type: 'user', multi: true, help: 'Users.' },
  ids: { type: 'integer', multi: true, required: true, help: 'Ids.' },
  expiry: { type: 'expiry', default: 'infinite', help: 'Expiry.' },
  file: { type: 'upload', help: 'A file.' },
});
type P = ParamsOf<typeof params>;

assertType<Equal<P['title'], string | undefined>>();
assertType<Equal<P['page'], string>>();
assertType<Equal<P['text'], string>>();
assertType<Equal<P['pageid'], number | undefined>>();
assertType<Equal<P['limit'], number>>();
assertType<Equal<P['namespace'], number[] | undefined>>();
assertType<Equal<P['ns'], number>>();
assertType<Equal<P['prop'], ('ids' | 'title' | 'size')[]>>();
assertType<Equal<P['dir'], 'ascending' | 'descending'>>();
assertType<Equal<P['show'], 'minor' | '!minor' | undefined>>();
assertType<Equal<P['minor'], boolean>>();
assertType<Equal<P['watch'], boolean>>();
assertType<Equal<P['start'], string | undefined>>();
assertType<Equal<P['user'], string | undefined>>();
assertType<Equal<P['users'], string[] | undefined>>();
assertType<Equal<P['ids'], number[]>>();
assertType<Equal<P['expiry'], string>>();
assertType<Equal<P['file'], undefined>>();
assertType<Equal<ContextOf<typeof params>['params'], P>>();

const env: ValidationEnv = { highLimits: false, namespaces: [0, 1, 2], warn: () => {}, parsedLimit: () => {} };

test('defineModule: execute sees the declared types, and the registry gets the declaration unchanged', async () => {
  let seen: unknown;
  const module: ModuleDecl = defineModule({
    name: 'typed',
    group: 'action',
    prefix: 'ty',
    summary: 'Fixture.',
    params: { prop: { type: ['a', 'b'], multi: true, help: 'P.' }, limit: LIMIT },
    flags: {},
    async execute(ctx) {
      // Compiles only if the types are inferred: an enum array and a number, no casts.
      const props: ('a' | 'b')[] | undefined = ctx.params.prop;
      const limit: number = ctx.params.limit;
      seen = { props, limit };
    },
  });
  assert.equal(module.params.limit, LIMIT);
  const raw = new Map([['typrop', 'b|a']]);
  const validated = validateParams(module, { get: (n) => raw.get(n), markUsed: () => {} }, env);
  await module.execute({ params: validated } as unknown as Parameters<ModuleDecl['execute']>[0]);
  assert.deepEqual(seen, { props: ['b', 'a'], limit: 10 });
});

test('the validator produces values of the inferred types', () => {
  const raw = new Map([
    ['page', 'Main Page'],
    ['pageid', '12'],
    ['namespace', '0|2'],
    ['prop', 'size'],
    ['minor', ''],
    ['start', '2024-01-31T23:59:59Z'],
    ['users', 'Alice|Bob'],
    ['ids', '1|2'],
  ]);
  const out = validateParams({ prefix: '', params }, { get: (n) => raw.get(n), markUsed: () => {} }, env) as P;
  assert.deepEqual(out, {
    title: undefined,
    page: 'Main Page',
    text: '',
    pageid: 12,
    limit: 10,
    namespace: [0, 2],
    ns: 0,
    prop: ['size'],
    dir: 'ascending',
    show: undefined,
    minor: true,
    watch: false,
    start: '20240131235959',
    user: undefined,
    users: ['Alice', 'Bob'],
    ids: [1, 2],
    expiry: 'infinity',
    file: undefined,
  } satisfies P);
});
