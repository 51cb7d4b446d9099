import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PageRecord, Revision } from '../../clients/types.js';
import { allmessagesModule } from './allmessages.js';
import { allMessageKeys, englishMessage, isValidLanguageCode, normalizeMessageKey } from '../../i18n/messages.js';
import { MessageUsageError } from '../errors.js';
import type { Params } from '../types.js';
import { EMPTY_PAGE_SET } from './pageset.js';
import { QueryContinuation } from './continuation.js';
import { fakeContext } from './testing.js';
import type { QueryRun } from './run.js';

const DEFAULTS: Params = { messages: ['*'], customised: 'all', enableparser: false, nocontent: false, includelocal: false };

/** Runs the module over a wiki whose MediaWiki: pages are `overrides` (title without namespace → text). */
async function run(params: Params, overrides: Record<string, string> = {}, raw: Record<string, string> = {}) {
  const { ctx, calls } = fakeContext(allmessagesModule, { ...DEFAULTS, ...params }, {}, { raw });
  const batches: number[] = [];
  const titles = Object.keys(overrides).sort();
  const content = ctx.deps.clients.content as unknown as Record<string, unknown>;
  content.listPages = async () => ({ pages: titles.map((t, i) => ({ id: i + 1, dbkey: `MediaWiki:${t}` }) as PageRecord), continueFrom: '' });
  content.getRevisions = async (req: { pageIds: number[] }) => ({ revisions: req.pageIds.map((id) => ({ pageId: id, content: overrides[titles[id - 1]!] }) as Revision) });
  content.expandTemplatesBatch = async (req: { texts: string[] }) => {
    batches.push(req.texts.length);
    return req.texts.map((text) => ({
      wikitext: text.replace(/\{\{SITENAME\}\}/g, 'Quire').replace(/\{\{PLURAL:(\d+)\|([^|}]*)\|([^}]*)\}\}/g, (_m, n, a, b) => (n === '1' ? a : b)),
      error: text.includes('{{#fail}}') ? 'renderer failed' : '',
    }));
  };
  content.resolvePages = async (req: { titles: string[] }) => ({ invalid: req.titles.filter((t) => t.includes('<')).map((title) => ({ title })), pages: [] });
  const q: QueryRun = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['allmessages'], []), resolveRedirects: false };
  await allmessagesModule.execute(ctx, q);
  assert.equal((q.data.allmessages as { _element?: string })._element, 'message');
  return { list: [...(q.data.allmessages as Record<string, unknown>[])], calls, batches };
}

test("the message table is MediaWiki 1.39 core + api + the reference wiki's extensions and skins", () => {
  const keys = allMessageKeys();
  assert.equal(keys.length, 7346, 'as many as the reference wiki lists');
  assert.equal(englishMessage('mainpage'), 'Main Page');
  assert.equal(englishMessage('Apierror-badtoken'), 'Invalid CSRF token.', 'first letter is case-insensitive');
  assert.equal(englishMessage('comma-separator'), ', ', '&#32; becomes a space');
  assert.equal(englishMessage('oathauth-desc') !== undefined, true);
  assert.equal(englishMessage('no-such-message-x'), undefined);
  assert.equal(normalizeMessageKey('Foo bar'), 'foo_bar');
  assert.equal(isValidLanguageCode('de'), true);
  assert.equal(isValidLanguageCode('a/b'), false);
  assert.equal(isValidLanguageCode('x<y'), false);
});

test('named messages: content, missing ones, normalized names, prop=default with arguments', async () => {
  const { list } = await run({ messages: ['mainpage', 'Foo bar', 'nosuchusershort'], prop: ['default'], args: ['5'] });
  assert.deepEqual(
    list.map((m) => ({ ...m })).map(({ _content, ...m }) => m),
    [
      { name: 'mainpage', normalizedname: 'mainpage', content: 'Main Page' },
      { name: 'Foo bar', normalizedname: 'foo_bar', missing: true },
      {
        name: 'nosuchusershort',
        normalizedname: 'nosuchusershort',
        content: 'There is no user by the name "5".\nCheck your spelling.',
        default: 'There is no user by the name "$1".\nCheck your spelling.',
      },
    ],
  );
  assert.equal(list[0]!._content, 'content', 'fv1 prints it as *');
});

test('all messages with prefix, from/to, filter and nocontent', async () => {
  const { list } = await run({ prefix: 'ipb-action-', nocontent: true });
  assert.deepEqual(list, [
    { name: 'ipb-action-create', normalizedname: 'ipb-action-create' },
    { name: 'ipb-action-move', normalizedname: 'ipb-action-move' },
    { name: 'ipb-action-upload', normalizedname: 'ipb-action-upload' },
  ]);
  const ranged = await run({ filter: 'separator', from: 'comma-separator', to: 'pipe-separator' });
  assert.deepEqual(
    ranged.list.map((m) => [m.name, m.content]),
    [
      ['comma-separator', ', '],
      ['pipe-separator', ' | '],
    ],
  );
});

test('MediaWiki: pages override the text, count as customised, and includelocal lists local-only ones', async () => {
  const overrides = { Mainpage: 'Home', 'Mainpage/de': 'Startseite', 'Quire-local': 'Local text' };
  const { list } = await run({ messages: ['mainpage', 'august'], customised: 'modified', prop: ['default'] }, overrides);
  assert.deepEqual(
    list.map(({ _content, ...m }) => m),
    [{ name: 'mainpage', normalizedname: 'mainpage', customised: true, content: 'Home', default: 'Main Page' }],
  );
  const unmodified = await run({ messages: ['mainpage', 'august'], customised: 'unmodified' }, overrides);
  assert.deepEqual(
    unmodified.list.map((m) => m.name),
    ['august'],
  );
  const german = await run({ messages: ['mainpage', 'august'], lang: 'de' }, overrides);
  assert.deepEqual(
    german.list.map((m) => m.content),
    ['Startseite', 'August'],
    "the language's own page, else English",
  );
  const local = await run({ prefix: 'quire-', includelocal: true }, overrides);
  assert.deepEqual(
    local.list.map((m) => [m.name, m.content]),
    [['quire-local', 'Local text']],
  );
  const notLocal = await run({ prefix: 'quire-' }, overrides);
  assert.deepEqual(notLocal.list, []);
});

test('enableparser expands the text; a bad amtitle or amlang is an error of query+allmessages', async () => {
  const { list } = await run({ messages: ['nchanges', 'searchsuggest-search'], enableparser: true, args: ['1'] });
  assert.deepEqual(
    list.map((m) => m.content),
    ['1 change', 'Search Quire'],
  );
  await assert.rejects(run({ messages: ['mainpage'], enableparser: true, title: '<x>' }), (e: unknown) => {
    assert.ok(e instanceof MessageUsageError);
    assert.equal(e.code, 'invalidtitle');
    assert.equal(e.info, 'Bad title "<x>".');
    assert.equal(e.apiMessage.html, 'Bad title "&#60;x&#62;".');
    assert.equal(e.modulePath, 'query+allmessages');
    return true;
  });
  await assert.rejects(run({ messages: ['mainpage'], lang: 'a/b' }), (e: unknown) => {
    assert.ok(e instanceof MessageUsageError);
    assert.equal(e.code, 'invalidlang');
    assert.equal(e.info, 'Invalid language code for parameter "amlang".');
    return true;
  });
});

test('enableparser: the messages with braces are expanded in one batch call per thousand messages; a text that fails fails the module', async () => {
  const { list, batches } = await run({ enableparser: true });
  assert.equal(list.length, allMessageKeys().length);
  const withBraces = allMessageKeys().filter((k) => englishMessage(k)!.includes('{{')).length;
  assert.equal(
    batches.reduce((a, b) => a + b, 0),
    withBraces,
    'each text with braces expanded once',
  );
  assert.equal(batches.length, Math.ceil(allMessageKeys().length / 1000));
  assert.equal(list.find((m) => m.name === 'aboutsite')!.content, 'About Quire');
  const none = await run({ messages: ['mainpage'], enableparser: true });
  assert.deepEqual(none.batches, [], 'no call without braces');
  await assert.rejects(run({ messages: ['mainpage', 'sitenotice'], enableparser: true }, { Sitenotice: '{{#fail}}' }), /message sitenotice could not be expanded: renderer failed/);
});

test('a result past $wgAPIMaxResultSize stops at the first message that does not fit: amfrom continues there, with truncatedresult (found by the fuzzer: 2 MB amargs over every message ran the gateway out of memory)', async () => {
  const big = 'x'.repeat(1_000_000);
  const { ctx } = fakeContext(allmessagesModule, { ...DEFAULTS, args: [big] }, {}, {});
  const content = ctx.deps.clients.content as unknown as Record<string, unknown>;
  content.listPages = async () => ({ pages: [], continueFrom: '' });
  content.getRevisions = async () => ({ revisions: [] });
  const warnings: { module: string; code: string; text: string }[] = [];
  (ctx as unknown as { addWarning: (m: string, w: { code: string; text: string }) => void }).addWarning = (module, w) => warnings.push({ module, code: w.code, text: w.text });
  const q: QueryRun = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['allmessages'], []), resolveRedirects: false };
  await allmessagesModule.execute(ctx, q);
  const list = q.data.allmessages as { name: string; content?: string }[];
  const withArg = list.filter((m) => m.content?.includes(big));
  assert.ok(withArg.length >= 1, 'messages with the argument are listed until the limit');
  const bytes = list.reduce((n, m) => n + (m.content?.length ?? 0), 0);
  assert.ok(bytes <= 8_388_608 && bytes > 8_388_608 - 3_000_000, `${bytes} bytes: as much as fits`);
  assert.deepEqual(warnings, [{ module: 'result', code: 'truncatedresult', text: 'This result was truncated because it would otherwise be larger than the limit of 8,388,608 bytes.' }]);
  const keys = allMessageKeys();
  const next = keys[keys.indexOf(list.at(-1)!.name) + 1]!;
  assert.ok(englishMessage(next)!.includes('$1'), 'the message that did not fit substitutes $1');
  const cont = q.continuation as unknown as { data: Map<string, Record<string, unknown>> };
  assert.deepEqual(cont.data.get('allmessages'), { amfrom: next });
});
