import { test } from 'node:test';
import assert from 'node:assert/strict';
import { languageinfoModule, languagesInfo } from './languageinfo.js';
import { EMPTY_PAGE_SET } from './pageset.js';
import { QueryContinuation } from './continuation.js';
import { fakeContext, stripMeta } from './testing.js';
import type { Params } from '../types.js';
import type { QueryRun } from './run.js';

async function run(params: Params) {
  const { ctx, warnings } = fakeContext(languageinfoModule, params, {});
  const q: QueryRun = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['languageinfo'], []), resolveRedirects: false };
  await languageinfoModule.execute(ctx, q);
  return { info: q.data.languageinfo as Record<string, Record<string, unknown>>, warnings };
}

test('siprop=languages: the 493 languages of MediaWiki 1.39 in code order, name as content', () => {
  const list = languagesInfo();
  assert.equal(list.length, 493);
  assert.deepEqual(stripMeta(list[0]), { code: 'aa', bcp47: 'aa', name: 'Qafár af' });
  assert.equal(list[0]!._content, 'name');
  assert.deepEqual(stripMeta(list.find((l) => l.code === 'zh-cn')), { code: 'zh-cn', bcp47: 'zh-Hans-CN', name: '中文（中国大陆）' });
  assert.equal((list as unknown as { _element: string })._element, 'lang');
});

test('languageinfo: props, selected codes with a warning for unknown ones, continue', async () => {
  const { info, warnings } = await run({ prop: ['code', 'dir', 'fallbacks', 'variants', 'autonym', 'name', 'bcp47'], code: ['sr', 'he', 'xyz'] });
  assert.deepEqual(
    Object.keys(info).filter((k) => !k.startsWith('_')),
    ['he', 'sr'],
  );
  assert.deepEqual(stripMeta(info.sr), {
    code: 'sr',
    bcp47: 'sr',
    dir: 'ltr',
    autonym: 'српски / srpski',
    name: 'српски / srpski',
    fallbacks: ['sr-ec', 'sr-cyrl'],
    variants: ['sr', 'sr-ec', 'sr-el'],
  });
  assert.equal(info.he!.dir, 'rtl');
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.msg.text, 'Unrecognized value for parameter "licode": xyz.');
  const all = await run({ prop: ['code'], code: ['*'] });
  assert.equal(Object.keys(all.info).filter((k) => !k.startsWith('_')).length, 493);
  const rest = await run({ prop: ['code'], code: ['*'], continue: 'zh-tw' });
  assert.deepEqual(
    Object.keys(rest.info).filter((k) => !k.startsWith('_')),
    ['zh-tw', 'zh-yue', 'zu'],
  );
});
