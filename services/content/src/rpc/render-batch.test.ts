/*
 * ExpandTemplatesBatch (meta=allmessages amenableparser): many texts of one title's context in
 * one call, rendered in chunks on the worker pool (a real piscina thread here), answered in the
 * order asked; an empty list answers nothing; a text whose render fails carries its error while
 * the others are answered.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, type Db, ServiceError } from '@quire/kit';
import { RenderService } from '../domain/render.js';
import { RenderPool } from '../render/pool.js';
import { testCodec, testSite } from '../render/testing.js';
import type { JobQueue } from '../store/jobs.js';
import type { ContentContext } from './context.js';
import { MAX_BATCH_TEXTS, renderHandlers } from './render.js';

/** The renderer's lookups reach this: no page exists, and asking for "Broken" fails as a lost database would. */
const db = {
  schema: 'content',
  embedded: false,
  inTransaction: () => false,
  async query(_sql: string, params: unknown[]) {
    if ((params[1] as string[]).includes('Broken')) throw new Error('the database went away');
    return { rows: [] };
  },
} as unknown as Db;

const pool = new RenderPool(1, testCodec, testSite);
const svc = new RenderService(db, testCodec, pool, { on() {} } as unknown as JobQueue, createLogger('test', 'silent'));
const rpc = renderHandlers({ db, codec: testCodec } as unknown as ContentContext, svc, { on() {} } as unknown as JobQueue);
after(() => pool.close());

const expand = (texts: string[], title = '') => rpc.expandTemplatesBatch({ texts, title, revId: 0 });

test('the answers come in the order of the texts, across several chunks of the pool', async () => {
  const texts = Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? `plain ${i}` : `{{#expr: ${i} * 2}} {{PAGENAME}}`));
  const r = await expand(texts);
  assert.equal(r.results.length, 150);
  r.results.forEach((x, i) => {
    assert.equal(x.error, '', `text ${i}`);
    assert.equal(x.wikitext, i % 3 === 0 ? `plain ${i}` : `${i * 2} API`, `text ${i}`);
  });
  // Each answer is what ExpandTemplates answers for the same text and title.
  for (const text of ['{{uc: {{SITENAME}} }}', 'a {{PLURAL:1|change|changes}}', '{{FULLPAGENAME}}']) {
    const one = await rpc.expandTemplates({ text, title: 'Talk:X y', revId: 0 });
    assert.equal((await expand([text], 'Talk:X y')).results[0]!.wikitext, one.wikitext, text);
  }
});

test('an empty list answers an empty list', async () => {
  assert.deepEqual(await expand([]), { results: [] });
});

test('a text whose render fails carries its error; the others are answered', async () => {
  const r = await expand(['{{lc: A}}', 'x {{Broken}} y', '{{uc: b}}']);
  assert.deepEqual(
    r.results.map((x) => x.wikitext),
    ['a', '', 'B'],
  );
  assert.deepEqual(
    r.results.map((x) => x.error),
    ['', 'the database went away', ''],
  );
});

test('a bad title or too many texts is refused as a whole', async () => {
  await assert.rejects(expand(['x'], '<bad>'), (e: unknown) => e instanceof ServiceError && e.mwCode === 'invalidtitle');
  await assert.rejects(expand(Array.from({ length: MAX_BATCH_TEXTS + 1 }, () => 'x')), (e: unknown) => e instanceof ServiceError && e.mwCode === 'toomanyvalues');
});
