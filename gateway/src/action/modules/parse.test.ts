/* action=parse: the flags of ApiParse that Quire accepts, validates and applies (side by side with MediaWiki 1.39). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParseResponse } from '../../clients/types.js';
import { parseModule } from './parse.js';
import { expandtemplatesModule } from './expandtemplates.js';
import { fakeContext, stripMeta } from '../query/testing.js';
import { validateParams, type ValidationEnv } from '../params.js';
import type { ApiUsageError, ApiMessage, ModuleDecl, ResultObject } from '../types.js';

const TOC =
  '<div id="toc" class="toc" role="navigation" aria-labelledby="mw-toc-heading"><div class="toctitle"><h2 id="mw-toc-heading">Contents</h2></div>\n<ul>\n' +
  '<li class="toclevel-1 tocsection-1"><a href="#A"><span class="toctext">A</span></a>\n<ul>\n<li class="toclevel-2"><a href="#B">B</a></li>\n</ul>\n</li>\n</ul>\n</div>';
const HTML = `<div class="mw-parser-output"><p>a\n</p>\n${TOC}\n<h2>A</h2></div>`;

/** Validates `raw` as the gateway does, then runs the module over fake content RPCs. */
async function run(module: ModuleDecl, raw: Record<string, string>) {
  const warned: ApiMessage[] = [];
  const env: ValidationEnv = { highLimits: false, namespaces: [0], warn: (m) => warned.push(m), parsedLimit: () => {} };
  const params = validateParams(module, { get: (n) => raw[n], markUsed: () => {} }, env);
  const { ctx, warnings } = fakeContext(module, params, {});
  const requests: Record<string, Record<string, unknown>> = {};
  const content = ctx.deps.clients.content as unknown as Record<string, unknown>;
  content.parse = async (req: Record<string, unknown>) => ((requests.parse = req), ParseResponse.fromPartial({ title: 'Foo', html: HTML, wikitext: String(req.text) }));
  content.formatComment = async (req: Record<string, unknown>) => ((requests.formatComment = req), { html: `<span>${String(req.comment)}</span>` });
  content.preSaveTransform = async (req: Record<string, unknown>) => ({ text: String(req.text) });
  content.expandTemplates = async (req: Record<string, unknown>) => (
    (requests.expandTemplates = req), { wikitext: 'expanded', parseTree: '<root>x</root>', categories: [], properties: [], volatile: false, ttl: 0 }
  );
  await module.execute(ctx);
  return { result: ctx.result, requests, warned: [...warned, ...warnings.map((w) => w.msg)].map((m) => m.code) };
}

test('parse: useskin takes the installed skins only; disablepp, effectivelanglinks and generatexml are deprecated', async () => {
  const ok = await run(parseModule, {
    text: 'a',
    title: 'Foo',
    useskin: 'vector-2022',
    disablepp: '',
    effectivelanglinks: '',
    generatexml: '',
    disablestylededuplication: '',
    showstrategykeys: '',
    sectionpreview: '',
  });
  assert.deepEqual(ok.warned, ['deprecation', 'deprecation', 'deprecation']);
  assert.equal(ok.requests.parse!.disableLimitReport, true, 'disablepp leaves the limit report out');
  await assert.rejects(run(parseModule, { text: 'a', useskin: 'nosuchskin' }), (e: ApiUsageError) => e.code === 'badvalue');
});

test('parse: disabletoc leaves the table of contents out of text, and only it', async () => {
  const { result } = await run(parseModule, { text: 'a', title: 'Foo', prop: 'text', disabletoc: '' });
  assert.equal((result.parse as ResultObject).text, '<div class="mw-parser-output"><p>a\n</p>\n\n<h2>A</h2></div>');
  const kept = await run(parseModule, { text: 'a', title: 'Foo', prop: 'text' });
  assert.equal((kept.result.parse as ResultObject).text, HTML);
});

test('parse: sectiontitle heads a new section and is its summary', async () => {
  const { result, requests } = await run(parseModule, { text: 'a', title: 'Foo', section: 'new', sectiontitle: 'He[[llo|xx]]', prop: 'wikitext' });
  assert.equal(requests.parse!.text, '== He[[llo|xx]] ==\n\na');
  assert.equal(requests.formatComment!.comment, '/* Hexx */ new section');
  assert.equal(requests.formatComment!.samePage, true, "a new section's summary links to its own fragment");
  assert.equal((result.parse as ResultObject).parsedsummary, '<span>/* Hexx */ new section</span>');
  const both = await run(parseModule, { text: 'a', title: 'Foo', section: 'new', sectiontitle: 'T', summary: 'S', prop: '' });
  assert.equal(both.requests.formatComment!.comment, 'S');
  const summaryOnly = await run(parseModule, { text: 'a', title: 'Foo', summary: '/* S */', prop: '' });
  assert.equal(summaryOnly.requests.formatComment!.samePage, false);
  const notNew = await run(parseModule, { text: 'a', title: 'Foo', sectiontitle: 'T', prop: '' });
  assert.equal(notNew.requests.parse!.text, 'a');
  assert.equal((notNew.result.parse as ResultObject).parsedsummary, undefined);
});

test("parse: contentformat must be one of the model's; generatexml adds the parse tree", async () => {
  await assert.rejects(run(parseModule, { text: 'a', contentformat: 'text/css', contentmodel: 'wikitext' }), (e: ApiUsageError) => e.code === 'badformat-generic');
  await assert.rejects(run(parseModule, { text: 'a', contentformat: 'text/html' }), (e: ApiUsageError) => e.code === 'badvalue');
  const { result, warned } = await run(parseModule, { text: 'x', contentformat: 'text/x-wiki', generatexml: '', prop: '' });
  assert.deepEqual(warned, ['deprecation', 'parse-nocontentmodel']);
  assert.equal((result.parse as ResultObject).parsetree, '<root>x</root>');
  const asked = await run(parseModule, { text: 'x', title: 'Foo', prop: 'parsetree' });
  assert.equal((asked.result.parse as ResultObject).parsetree, '<root>x</root>');
  assert.deepEqual(asked.requests.expandTemplates, { text: 'x', title: 'Foo', revId: 0 }, 'the tree of the text parsed, as its page');
});

test('expandtemplates: generatexml puts the parse tree beside the legacy output; not with prop', async () => {
  const { result, warned } = await run(expandtemplatesModule, { text: 'x', generatexml: '', showstrategykeys: '' });
  assert.deepEqual(warned, ['deprecation', 'deprecation']);
  assert.equal(result.parsetree, '<root>x</root>');
  assert.equal((result.expandtemplates as ResultObject).wikitext, 'expanded');
  await assert.rejects(run(expandtemplatesModule, { text: 'x', generatexml: '', prop: 'wikitext' }), (e: ApiUsageError) => e.code === 'invalidparammix');
});

test('expandtemplates: every prop as MediaWiki 1.39 answers it (the reference wiki): its order, volatile false, no empty categories or properties, empty modules and variables', async () => {
  const all = 'categories|encodedjsconfigvars|jsconfigvars|modules|parsetree|properties|ttl|volatile|wikitext';
  const { result, warned } = await run(expandtemplatesModule, { text: 'x', prop: all });
  assert.deepEqual(warned, []);
  // The result's own keys, without the formatter's metadata (`_type`, `_subelements`…).
  const strip = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !k.startsWith('_'))
            .map(([k, x]) => [k, strip(x)]),
        )
      : v;
  assert.deepEqual(strip(result.expandtemplates), {
    parsetree: '<root>x</root>',
    volatile: false,
    wikitext: 'expanded',
    modules: [],
    modulescripts: [],
    modulestyles: [],
    jsconfigvars: {},
    encodedjsconfigvars: '[]',
  });
  assert.deepEqual(Object.keys(strip(result.expandtemplates) as object), ['parsetree', 'volatile', 'wikitext', 'modules', 'modulescripts', 'modulestyles', 'jsconfigvars', 'encodedjsconfigvars']);
  // modules without the variables: MediaWiki's warning.
  assert.deepEqual((await run(expandtemplatesModule, { text: 'x', prop: 'modules' })).warned, ['moduleswithoutvars']);
});

test('parse: showtoc is always told with sections; modules, config vars, indicators and warnings in HTML as ApiParse gives them', async () => {
  const r = await run(parseModule, { text: 'a', title: 'Foo', prop: 'sections|modules|jsconfigvars|encodedjsconfigvars|indicators|parsewarningshtml' });
  const parse = r.result.parse as ResultObject;
  assert.equal(parse.showtoc, false);
  assert.deepEqual(stripMeta(parse.modules), []);
  assert.deepEqual(stripMeta(parse.modulescripts), []);
  assert.deepEqual(stripMeta(parse.modulestyles), []);
  assert.deepEqual(stripMeta(parse.jsconfigvars), {});
  assert.equal(parse.encodedjsconfigvars, '[]');
  assert.deepEqual(stripMeta(parse.indicators), {});
  assert.deepEqual(stripMeta(parse.parsewarningshtml), []);
  assert.deepEqual(r.warned, []);
  const alone = await run(parseModule, { text: 'a', title: 'Foo', prop: 'modules' });
  assert.deepEqual(alone.warned, ['moduleswithoutvars']);
});
