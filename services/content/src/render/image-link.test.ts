/*
 * Images of a file that exists, with every kind of `link=` (Parser::makeImage / Linker::makeImageLink
 * in MediaWiki 1.39): the expected HTML is the reference wiki's action=parse output for the same
 * wikitext and a 40×30 PNG. Also the structural guarantee: whatever a pass builds, the output stage
 * drops a URL the allow-list refuses.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest } from './testing.js';

const pages = new MemoryLookup({ 'Main Page': 'x' });
pages.addFile('Probe.png', { width: 40, height: 30, url: '/w/images/2/22/Probe.png', mime: 'image/png' });

const IMG = (alt: string, extra = '') => `<img alt="${alt}" src="/w/images/2/22/Probe.png" decoding="async"${extra} width="40" height="30"`;
const P = (inner: string) => `<div class="mw-parser-output"><p>${inner}\n</p></div>`;
const MAGNIFY = '<div class="magnify"><a href="/wiki/File:Probe.png" class="internal" title="Enlarge"></a></div>';

const LEGACY: [string, string][] = [
  ['[[File:Probe.png|link=javascript:alert(1)]]', P(`<a href="/wiki/Javascript:alert(1)" title="Javascript:alert(1)">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link=jav&#x61;script:alert(1)]]', P(`<a href="/wiki/Javascript:alert(1)" title="Javascript:alert(1)">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link= javascript:x]]', P(`<a href="/wiki/Javascript:x" title="Javascript:x">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link=data:text/html,x]]', P(`<a href="/wiki/Data:text/html,x" title="Data:text/html,x">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link=Main Page]]', P(`<a href="/wiki/Main_Page" title="Main Page">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link=Main Page#Sec|cap]]', P(`<a href="/wiki/Main_Page#Sec" title="cap">${IMG('cap')} /></a>`)],
  ['[[File:Probe.png|link=http://example.com/x]]', P(`<a href="http://example.com/x" rel="nofollow">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link=//example.org/p]]', P(`<a href="//example.org/p" rel="nofollow">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link=mailto:a@b.c]]', P(`<a href="mailto:a@b.c" rel="nofollow">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link=matrix:r/x]]', P(`<a href="matrix:r/x" rel="nofollow">${IMG('Probe.png')} /></a>`)],
  ['[[File:Probe.png|link=http://x.org/|cap]]', P(`<a href="http://x.org/" title="cap" rel="nofollow">${IMG('cap')} /></a>`)],
  ['[[File:Probe.png|link=]]', P(`${IMG('Probe.png')} />`)],
  ['[[File:Probe.png|link=|cap]]', P(`${IMG('cap', ' title="cap"')} />`)],
  // Not a valid URL after its protocol: the option is the caption.
  ['[[File:Probe.png|link=http://]]', P(`<a href="/wiki/File:Probe.png" class="image" title="link=http://">${IMG('link=http://')} /></a>`)],
  [
    '[[File:Probe.png|thumb|link=Main Page|cap]]',
    `<div class="mw-parser-output"><div class="thumb tright"><div class="thumbinner" style="width:42px;"><a href="/wiki/Main_Page" title="Main Page">${IMG('')} class="thumbimage" /></a>  <div class="thumbcaption">${MAGNIFY}cap</div></div></div></div>`,
  ],
  [
    '[[File:Probe.png|thumb|left|alt=A|link=http://x.org/|cap]]',
    `<div class="mw-parser-output"><div class="thumb tleft"><div class="thumbinner" style="width:42px;"><a href="http://x.org/" rel="nofollow">${IMG('A')} class="thumbimage" /></a>  <div class="thumbcaption">${MAGNIFY}cap</div></div></div></div>`,
  ],
  [
    '[[File:Probe.png|frame|link=Main Page|cap]]',
    `<div class="mw-parser-output"><div class="thumb tright"><div class="thumbinner" style="width:42px;"><a href="/wiki/Main_Page" title="Main Page">${IMG('')} class="thumbimage" /></a>  <div class="thumbcaption">cap</div></div></div></div>`,
  ],
  [
    '[[File:Probe.png|thumb|link=|cap]]',
    `<div class="mw-parser-output"><div class="thumb tright"><div class="thumbinner" style="width:42px;">${IMG('')} class="thumbimage" />  <div class="thumbcaption">${MAGNIFY}cap</div></div></div></div>`,
  ],
  [
    '[[File:Probe.png|thumb]]',
    `<div class="mw-parser-output"><div class="thumb tright"><div class="thumbinner" style="width:42px;"><a href="/wiki/File:Probe.png" class="image">${IMG('Probe.png')} class="thumbimage" /></a>  <div class="thumbcaption">${MAGNIFY}</div></div></div></div>`,
  ],
  [
    '[[File:Probe.png|thumb|center|cap]]',
    `<div class="mw-parser-output"><div class="center"><div class="thumb tnone"><div class="thumbinner" style="width:42px;"><a href="/wiki/File:Probe.png" class="image">${IMG('')} class="thumbimage" /></a>  <div class="thumbcaption">${MAGNIFY}cap</div></div></div></div></div>`,
  ],
  ['[[File:Probe.png|left|cap]]', `<div class="mw-parser-output"><div class="floatleft"><a href="/wiki/File:Probe.png" class="image" title="cap">${IMG('cap')} /></a></div></div>`],
  ['[[File:Probe.png|none|link=Main Page]]', `<div class="mw-parser-output"><div class="floatnone"><a href="/wiki/Main_Page" title="Main Page">${IMG('Probe.png')} /></a></div></div>`],
  ['[[File:Probe.png|center]]', `<div class="mw-parser-output"><div class="center"><div class="floatnone"><a href="/wiki/File:Probe.png" class="image">${IMG('Probe.png')} /></a></div></div></div>`],
  ["[[File:Probe.png|''it'' [[Main Page]]]]", P(`<a href="/wiki/File:Probe.png" class="image" title="it Main Page">${IMG('it Main Page')} /></a>`)],
];

describe('image link= on an existing file', () => {
  for (const [text, expected] of LEGACY) {
    test(`legacy: ${text}`, async () => {
      const r = await renderTest(text, { pages, req: { limitReport: false } });
      assert.equal(r.html, expected);
    });
  }

  test('Parsoid: title, URL and no link, as Parsoid writes them', async () => {
    const body = async (text: string) => (await renderTest(text, { pages, req: { mode: 'parsoid' } })).parsoidBody ?? '';
    assert.match(
      await body('[[File:Probe.png|link=javascript:alert(1)]]'),
      /<span class="mw-default-size" typeof="mw:File"[^>]*><a href="\.\/Javascript:alert\(1\)" title="Javascript:alert\(1\)" id="mw\w+"><img resource="\.\/File:Probe\.png" src="\/w\/images\/2\/22\/Probe\.png"/,
    );
    assert.match(await body('[[File:Probe.png|link=Main Page]]'), /<a href="\.\/Main_Page" title="Main Page" id="mw\w+"><img /);
    assert.match(await body('[[File:Probe.png|link=http://example.com/x]]'), /<a href="http:\/\/example\.com\/x" id="mw\w+"><img /);
    assert.match(await body('[[File:Probe.png|link=]]'), /typeof="mw:File"[^>]*><span id="mw\w+"><img /);
    assert.match(
      await body('[[File:Probe.png|thumb|link=Main Page|cap]]'),
      /<figure class="mw-default-size" typeof="mw:File\/Thumb"[^>]*><a href="\.\/Main_Page" title="Main Page" id="mw\w+"><img [^>]*\/><\/a><figcaption id="mw\w+">cap<\/figcaption><\/figure>/,
    );
  });

  test('link= targets are recorded: titles as links, URLs as external links', async () => {
    const r = await renderTest('[[File:Probe.png|link=Main Page]] [[File:Probe.png|link=Nowhere]] [[File:Probe.png|link=http://example.com/x]]', { pages });
    assert.deepEqual(
      r.links.map((l) => [l.dbkey, l.exists]),
      [
        ['Main_Page', true],
        ['Nowhere', false],
      ],
    );
    assert.deepEqual(r.externalLinks, ['http://example.com/x']);
    assert.deepEqual(r.images, ['Probe.png']);
  });

  test('the output stage drops a refused URL whatever built it (a file URL from storage here)', async () => {
    const odd = new MemoryLookup();
    odd.addFile('Odd.png', { width: 4, height: 3, url: 'javascript:alert(1)', mime: 'image/png' });
    const legacy = await renderTest('[[File:Odd.png]] [[Media:Odd.png|m]]', { pages: odd, req: { limitReport: false } });
    assert.equal(
      legacy.html,
      '<div class="mw-parser-output"><p><a href="/wiki/File:Odd.png" class="image"><img alt="Odd.png" decoding="async" width="4" height="3" /></a> <a class="internal" title="Odd.png">m</a>\n</p></div>',
    );
    const parsoid = await renderTest('[[File:Odd.png]]', { pages: odd, req: { mode: 'parsoid' } });
    assert.doesNotMatch(parsoid.parsoidBody ?? '', /javascript/);
  });
});
