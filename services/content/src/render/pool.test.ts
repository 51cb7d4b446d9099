/*
 * Every parser function and extension tag the renderer knows, rendered through the worker pool
 * (piscina threads, as the content service renders), not in-process: a module that loads lazily
 * or differently inside a worker fails here. Expected HTML was taken from MediaWiki 1.39's
 * action=parse of the same samples (site "AnchorWiki", server http://127.0.0.1:8080).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GrpcStatus, ServiceError } from '@quire/kit';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import { FUNCTION_NAMES } from './functions.js';
import { RenderPool } from './pool.js';
import type { RenderRequest } from './types.js';
import { EXTENSION_TAGS } from './preprocess.js';
import { MemoryLookup } from './testing.js';

const site = { name: 'AnchorWiki', server: 'http://127.0.0.1:8080' };
const codec = new TitleCodec(new NamespaceTable(site.name));

/** [function or <tag>, wikitext, MediaWiki's HTML inside mw-parser-output (undefined: shape checked below)]. */
const SAMPLES: [string, string, string | undefined][] = [
  ['#if', '{{#if: x | yes | no}}', '<p>yes\n</p>'],
  ['#ifeq', '{{#ifeq: 01 | 1 | equal | different}}', '<p>equal\n</p>'],
  ['#iferror', '{{#iferror: {{#expr: 1/0}} | bad | good}}', '<p>bad\n</p>'],
  ['#ifexpr', '{{#ifexpr: 2 > 1 | big | small}}', '<p>big\n</p>'],
  ['#expr', '{{#expr: (2+3)*4 mod 7}}', '<p>6\n</p>'],
  ['#ifexist', '{{#ifexist: Main Page | there | absent}}', '<p>there\n</p>'],
  ['#switch', '{{#switch: b | a = A | b = B | #default = D}}', '<p>B\n</p>'],
  ['#time', '{{#time: Y-m-d | 2020-02-29}}', '<p>2020-02-29\n</p>'],
  ['#language', '{{#language: de}}', '<p>Deutsch\n</p>'],
  ['#formatdate', '{{#formatdate: 2009-12-25 | mdy}}', '<p><span class="mw-formatted-date" title="2009-12-25">December 25, 2009</span>\n</p>'],
  ['#timel', '{{#timel: H:i | 2020-02-29 13:45}}', '<p>13:45\n</p>'],
  [
    '#tag',
    '{{#tag:ref|x}}',
    '<p><sup id="cite&#95;ref-1" class="reference"><a href="#cite_note-1">&#91;1&#93;</a></sup>\n</p>\n<div class="mw-references-wrap"><ol class="references">\n<li id="cite&#95;note-1"><span class="mw-cite-backlink"><a href="#cite_ref-1">↑</a></span> <span class="reference-text">x</span>\n</li>\n</ol></div>',
  ],
  ['#titleparts', '{{#titleparts: Talk:A/B/C | 2 | 2}}', '<p>B/C\n</p>'],
  ['lc', '{{lc: ÀBC}}', '<p>àbc\n</p>'],
  ['uc', '{{uc: àbc}}', '<p>ÀBC\n</p>'],
  ['lcfirst', '{{lcfirst: ABC}}', '<p>aBC\n</p>'],
  ['ucfirst', '{{ucfirst: abc}}', '<p>Abc\n</p>'],
  ['urlencode', '{{urlencode: a b&c/d}} {{urlencode: a b|PATH}} {{urlencode: a b|WIKI}}', '<p>a+b%26c%2Fd a%20b a_b\n</p>'],
  ['anchorencode', '{{anchorencode: A b_c ?}}', '<p>A_b_c_?\n</p>'],
  [
    'fullurl',
    '{{fullurl: Main Page | action=edit}}',
    '<p><a rel="nofollow" class="external free" href="http://127.0.0.1:8080/w/index.php?title=Main_Page&amp;action=edit">http://127.0.0.1:8080/w/index.php?title=Main_Page&amp;action=edit</a>\n</p>',
  ],
  [
    'fullurle',
    '{{fullurle: Main Page | a=1&b=2}}',
    '<p><a rel="nofollow" class="external free" href="http://127.0.0.1:8080/w/index.php?title=Main_Page&amp;a=1&amp;b=2">http://127.0.0.1:8080/w/index.php?title=Main_Page&amp;a=1&amp;b=2</a>\n</p>',
  ],
  ['localurl', '{{localurl: A b}}', '<p>/wiki/A_b\n</p>'],
  ['canonicalurl', '{{canonicalurl: A b}}', '<p><a rel="nofollow" class="external free" href="http://127.0.0.1:8080/wiki/A_b">http://127.0.0.1:8080/wiki/A_b</a>\n</p>'],
  ['ns', '{{ns: 4}} {{ns: User talk}}', '<p>AnchorWiki User talk\n</p>'],
  ['padleft', '{{padleft: 7 | 3 | 0}}', '<p>007\n</p>'],
  ['padright', '{{padright: ab | 5 | xy}}', '<p>abxyx\n</p>'],
  ['plural', '{{plural: 2 | one | many}}', '<p>many\n</p>'],
  ['formatnum', '{{formatnum: 1234567.89}} {{formatnum: 1,234|R}}', '<p>1,234,567.89 1234\n</p>'],
  ['displaytitle', '{{DISPLAYTITLE: Test}}shown', '<p>shown\n</p>'],
  ['defaultsort', '{{DEFAULTSORT: Key}}shown', '<p>shown\n</p>'],
  ['int', '{{int: nosuchmessage-xyz}}', '<p>⧼nosuchmessage-xyz⧽\n</p>'],
  ['#len', '{{#len: héllo}}', '<p>5\n</p>'],
  ['#pos', '{{#pos: abcabc | c}}', '<p>2\n</p>'],
  ['#rpos', '{{#rpos: abcabc | c}}', '<p>5\n</p>'],
  ['#sub', '{{#sub: abcdef | 1 | 3}}', '<p>bcd\n</p>'],
  ['#replace', '{{#replace: a-b-c | - | +}}', '<p>a+b+c\n</p>'],
  ['#explode', '{{#explode: a,b,c | , | 1}}', '<p>b\n</p>'],
  ['#urldecode', '{{#urldecode: a%20b+c}}', '<p>a b c\n</p>'],
  ['<nowiki>', "<nowiki>''x''</nowiki>", "<p>''x''\n</p>"],
  ['<pre>', '<pre>a <b>b</b></pre>', '<pre>a &lt;b&gt;b&lt;/b&gt;</pre>'],
  [
    '<ref>',
    'a<ref name=n>r</ref>',
    '<p>a<sup id="cite&#95;ref-n&#95;1-0" class="reference"><a href="#cite_note-n-1">&#91;1&#93;</a></sup>\n</p>\n<div class="mw-references-wrap"><ol class="references">\n<li id="cite&#95;note-n-1"><span class="mw-cite-backlink"><a href="#cite_ref-n_1-0">↑</a></span> <span class="reference-text">r</span>\n</li>\n</ol></div>',
  ],
  [
    '<references>',
    '<ref>one</ref>\n<references/>',
    '<p><sup id="cite&#95;ref-1" class="reference"><a href="#cite_note-1">&#91;1&#93;</a></sup>\n</p>\n<div class="mw-references-wrap"><ol class="references">\n<li id="cite&#95;note-1"><span class="mw-cite-backlink"><a href="#cite_ref-1">↑</a></span> <span class="reference-text">one</span>\n</li>\n</ol></div>',
  ],
  ['<gallery>', '<gallery>\nFile:Nope-xyz.png|c\n</gallery>', undefined],
  ['<indicator>', '<indicator name=i>x</indicator>z', '<p>z\n</p>'],
];

describe('render worker pool', () => {
  const pool = new RenderPool(2, codec, site);
  after(() => pool.close());
  const lookup = new MemoryLookup({ 'Main Page': 'x' });
  const render = (text: string, mode?: 'parsoid') => pool.render({ text, title: { ns: 0, dbkey: 'Test' }, pageId: 0, revId: 0, limitReport: false, ...(mode ? { mode } : {}) }, lookup);

  test('no render thread runs before the first render (start-up memory)', async () => {
    const idle = new RenderPool(2, codec, site);
    try {
      assert.equal(idle.threads, 0);
      await idle.render({ text: "''x''", title: { ns: 0, dbkey: 'Test' }, pageId: 0, revId: 0, limitReport: false }, lookup);
      assert.equal(idle.threads, 1);
    } finally {
      await idle.close();
    }
  });

  test('a sample covers every parser function and extension tag', () => {
    const covered = new Set(SAMPLES.map(([name]) => name));
    assert.deepEqual(
      FUNCTION_NAMES.filter((n) => !covered.has(n)),
      [],
    );
    assert.deepEqual(
      EXTENSION_TAGS.filter((t) => !covered.has(`<${t}>`)),
      [],
    );
  });

  for (const [name, text, expected] of SAMPLES) {
    test(`${name} renders in a worker as MediaWiki does`, async () => {
      const r = await render(text);
      assert.doesNotMatch(r.html, /class="error"|internal_api_error/);
      if (expected !== undefined) assert.equal(r.html, `<div class="mw-parser-output">${expected}</div>`);
      const p = await render(text, 'parsoid');
      assert.ok(p.parsoidBody !== undefined && !/class="error"/.test(p.parsoidBody), `parsoid mode of ${name}: ${p.parsoidBody}`);
    });
  }

  test('<gallery> of a missing file renders its box and caption', async () => {
    const r = await render('<gallery>\nFile:Nope-xyz.png|c\n</gallery>');
    assert.match(r.html, /^<div class="mw-parser-output"><ul class="gallery mw-gallery-traditional">\n\t\t<li class="gallerybox" style="width: 155px">/);
    assert.match(r.html, /<div class="gallerytext">\n<p>c\n<\/p>/);
  });

  test('concurrent renders each get their own lookups and output', async () => {
    const texts = Array.from({ length: 12 }, (_, i) => `{{#tag:ref|n${i}}} {{#ifexist: Main Page | yes${i} | no}}`);
    const out = await Promise.all(texts.map((t) => render(t)));
    out.forEach((r, i) => {
      assert.match(r.html, new RegExp(`yes${i}\\b`));
      assert.match(r.html, new RegExp(`<span class="reference-text">n${i}</span>`));
    });
  });
});

/**
 * Templates whose expansion doubles at each level: {{T<k>}} expands 2^k templates (seconds from
 * about k = 16, up to the node-count limit), a render slow enough to hold a thread.
 */
function doublingTemplates(levels: number): MemoryLookup {
  const pages: Record<string, string> = { 'Template:T0': 'x' };
  for (let k = 1; k <= levels; k++) pages[`Template:T${k}`] = `{{T${k - 1}}}{{T${k - 1}}}`;
  return new MemoryLookup(pages);
}

const request = (text: string): RenderRequest => ({ text, title: { ns: 0, dbkey: 'Test' }, pageId: 0, revId: 0, limitReport: false });

describe('render deadlines: no render holds the render threads', () => {
  const slowLookup = doublingTemplates(20);

  test('a render still running at its deadline is stopped (its thread ended) with timeouterror-text; the pool renders on', async () => {
    const pool = new RenderPool(1, codec, site, { timeoutMs: 1500 });
    try {
      await pool.render(request('warm'), slowLookup);
      const started = performance.now();
      await assert.rejects(pool.render(request('{{T20}}'), slowLookup), (e: unknown) => {
        assert.ok(e instanceof ServiceError, String(e));
        assert.equal(e.grpcCode, GrpcStatus.RESOURCE_EXHAUSTED);
        assert.equal(e.mwCode, 'timeouterror-text');
        assert.equal(e.message, 'The maximum request time of 2 seconds was exceeded.');
        return true;
      });
      // Stopped at its deadline, not when it would have finished (seconds later).
      const waited = performance.now() - started;
      assert.ok(waited < 4000, `the render was stopped after ${Math.round(waited)} ms`);
      const next = await pool.render(request("''x''"), slowLookup);
      assert.equal(next.html, '<div class="mw-parser-output"><p><i>x</i>\n</p></div>');
    } finally {
      await pool.close();
    }
  });

  test('while one render runs for seconds on the only render thread, a small one is answered at once (a spare thread)', async () => {
    const pool = new RenderPool(1, codec, site, { timeoutMs: 20_000 });
    try {
      // Both threads started first: a thread's start (loading the renderer) is not what is measured.
      await Promise.all([pool.render(request('a'), slowLookup), pool.render(request('b'), slowLookup)]);
      const slowStarted = performance.now();
      const slow = pool.render(request('{{T17}}'), slowLookup).then(
        () => performance.now() - slowStarted,
        () => performance.now() - slowStarted,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      const small = await pool.render(request("''small''"), slowLookup);
      const smallMs = performance.now() - started;
      assert.match(small.html, /<i>small<\/i>/);
      const slowMs = await slow;
      assert.ok(slowMs > 1500, `the slow render took only ${Math.round(slowMs)} ms: not slow enough to show anything`);
      assert.ok(smallMs < 1000, `the small render waited ${Math.round(smallMs)} ms behind one of ${Math.round(slowMs)} ms`);
    } finally {
      await pool.close();
    }
  });

  test("a sequence of renders (the pre-save transform's substitutions) is one unit under one deadline, on a thread and in-process", async () => {
    for (const threads of [1, 0]) {
      const pool = new RenderPool(threads, codec, site, { timeoutMs: 1500 });
      try {
        const small = await pool.renderSequence([request("''a''"), request('b')], slowLookup, false);
        assert.deepEqual(
          small.map((r) => r.ok && r.out.html),
          ['<div class="mw-parser-output"><p><i>a</i>\n</p></div>', '<div class="mw-parser-output"><p>b\n</p></div>'],
        );
        // Each render alone is well within the deadline; all of them together are not.
        const many = Array.from({ length: 400 }, () => request('{{T11}}'));
        const started = performance.now();
        await assert.rejects(pool.renderSequence(many, slowLookup, threads === 0), (e: unknown) => e instanceof ServiceError && e.mwCode === 'timeouterror-text');
        const waited = performance.now() - started;
        assert.ok(waited < 4000, `${threads} threads: the sequence was stopped after ${Math.round(waited)} ms`);
      } finally {
        await pool.close();
      }
    }
  });

  test('on the service thread (no render threads) a render is stopped at its deadline too, by the expansion itself', async () => {
    const pool = new RenderPool(0, codec, site, { timeoutMs: 1000 });
    try {
      const started = performance.now();
      await assert.rejects(pool.render(request('{{T20}}'), slowLookup), (e: unknown) => e instanceof ServiceError && e.mwCode === 'timeouterror-text');
      const waited = performance.now() - started;
      assert.ok(waited < 3000, `the in-process render was stopped after ${Math.round(waited)} ms`);
      const next = await pool.render(request("''x''"), slowLookup);
      assert.equal(next.html, '<div class="mw-parser-output"><p><i>x</i>\n</p></div>');
    } finally {
      await pool.close();
    }
  });
});

test('WIKI_META_NAMESPACE: the render threads name the project namespace after it, not after the site', async () => {
  const pool = new RenderPool(1, new TitleCodec(new NamespaceTable('TestWiki')), { name: 'MediaWiki', metaNamespace: 'TestWiki', server: 'http://example.org' });
  try {
    const r = await pool.render(request('{{ns:4}} {{ns:8}} {{SITENAME}} {{ns:Project}}'), new MemoryLookup({}));
    assert.match(r.html, /<p>TestWiki MediaWiki MediaWiki TestWiki\n<\/p>/);
  } finally {
    await pool.close();
  }
});
