/*
 * The renderer on a corpus of varied pages (templates, tables, references, images, categories,
 * redirects, lists, parser functions…): each page's HTML and metadata are checked for the
 * structure MediaWiki 1.39 produces (the shapes were taken from the reference wiki).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest } from './testing.js';
import type { RenderResult } from './types.js';

const wiki = new MemoryLookup({
  'Main Page': 'main',
  'Template:Hello': 'Hello {{{1|world}}} and {{{name|nobody}}}!',
  'Template:Infobox': '{| class="infobox"\n! {{{title}}}\n|-\n| {{{body|none}}}\n|}',
  'Template:Loop': 'a{{Loop}}',
  'Template:Outer': '[{{Inner|{{{1}}}}}]',
  'Template:Inner': '<{{{1}}}>',
  'Template:Redirected': '#REDIRECT [[Template:Hello]]',
  'Template:Section': '== From template ==\ntext',
  'Template:Categorize': '[[Category:From template]]',
  'Template:List': '* one\n* two',
  'Template:Only': 'a<noinclude>hidden</noinclude><includeonly>shown</includeonly><onlyinclude>O</onlyinclude>',
  'Category:Existing': 'cat',
  Elsewhere: '#REDIRECT [[Main Page]]',
});
wiki.addFile('Pic.png', { width: 400, height: 300, url: '/w/images/a/ab/Pic.png', mime: 'image/png' });

interface Case {
  name: string;
  text: string;
  html?: (RegExp | string)[];
  not?: RegExp[];
  check?: (r: RenderResult & { parsoidBody?: string }) => void;
  parsoid?: boolean;
}

const CORPUS: Case[] = [
  { name: 'paragraphs', text: 'a\n\nb', html: ['<p>a\n</p><p>b\n</p>'] },
  { name: 'bold and italic', text: "'''b''' ''i'' '''''bi'''''", html: ['<b>b</b> <i>i</i> <i><b>bi</b></i>'] },
  {
    name: 'blue and red links',
    text: '[[Main Page]] [[Missing page|label]]',
    html: [
      '<a href="/wiki/Main_Page" title="Main Page">Main Page</a>',
      '<a href="/w/index.php?title=Missing_page&amp;action=edit&amp;redlink=1" class="new" title="Missing page (page does not exist)">label</a>',
    ],
    check: (r) =>
      assert.deepEqual(
        r.links.map((l) => [l.dbkey, l.exists]),
        [
          ['Main_Page', true],
          ['Missing_page', false],
        ],
      ),
  },
  { name: 'link trail and redirect class', text: '[[Main Page]]s [[Elsewhere]]', html: ['>Main Pages</a>', 'class="mw-redirect"'] },
  { name: 'self link and fragment', text: '[[Test]] [[#Part|p]]', html: ['<a class="mw-selflink selflink">Test</a>', '<a href="#Part">p</a>'] },
  {
    name: 'external links',
    text: '[http://example.com x] [http://example.com] http://example.org/a.',
    html: [
      'class="external text" href="http://example.com">x</a>',
      'class="external autonumber" href="http://example.com">[1]</a>',
      'class="external free" href="http://example.org/a">http://example.org/a</a>.',
    ],
    check: (r) => assert.deepEqual(r.externalLinks, ['http://example.com', 'http://example.org/a']),
  },
  {
    name: 'interwiki and language links',
    text: 'x [[wikipedia:Foo]] [[fr:Bonjour]]',
    html: ['class="extiw" title="wikipedia:Foo"'],
    not: [/Bonjour/],
    check: (r) => assert.deepEqual(r.langLinks, [{ lang: 'fr', title: 'Bonjour', url: 'https://fr.wikipedia.org/wiki/Bonjour' }]),
  },
  {
    name: 'headings, anchors, TOC',
    text: '== A ==\n=== B ===\n== C ==\n== A ==',
    html: ['<div id="toc" class="toc"', 'id="A_2"', '<span class="tocnumber">1.1</span>'],
    check: (r) =>
      assert.deepEqual(
        r.sections.map((s) => [s.number, s.anchor, s.byteoffset]),
        [
          ['1', 'A', 0],
          ['1.1', 'B', 8],
          ['2', 'C', 18],
          ['3', 'A_2', 26],
        ],
      ),
  },
  { name: 'NOTOC', text: '__NOTOC__\n== A ==\n== B ==\n== C ==\n== D ==', not: [/id="toc"/], check: (r) => assert.equal(r.properties.notoc, '') },
  { name: 'lists', text: '* a\n** b\n# c\n; t : d', html: ['<ul><li>a\n<ul><li>b</li></ul></li></ul>', '<ol><li>c</li></ol>', '<dl><dt>t</dt>\n<dd>d</dd></dl>'] },
  { name: 'preformatted', text: ' x\n y', html: ['<pre>x\ny\n</pre>'] },
  {
    name: 'table',
    text: '{| class="wikitable"\n|+ Cap\n! H1 !! H2\n|-\n| a || b\n|}',
    html: ['<table class="wikitable">\n<caption>Cap\n</caption>\n<tbody><tr>\n<th>H1</th>\n<th>H2\n</th></tr>\n<tr>\n<td>a</td>\n<td>b\n</td></tr></tbody></table>'],
  },
  { name: 'table cell attributes', text: '{|\n| colspan="2" onclick="x" | wide\n|}', html: ['<td colspan="2">wide'], not: [/onclick/] },
  {
    name: 'template with params',
    text: '{{Hello}} {{Hello|you|name=Bob}}',
    html: ['Hello world and nobody! Hello you and Bob!'],
    check: (r) =>
      assert.deepEqual(
        r.templates.map((t) => t.dbkey),
        ['Hello'],
      ),
  },
  { name: 'nested templates', text: '{{Outer|x}}', html: ['[&lt;x&gt;]'], check: (r) => assert.deepEqual(r.templates.map((t) => t.dbkey).sort(), ['Inner', 'Outer']) },
  {
    name: 'template loop',
    text: '{{Loop}}',
    html: ['<span class="error">Template loop detected: <a href="/wiki/Template:Loop"'],
    check: (r) => assert.ok(r.categories.some((c) => c.dbkey === 'Pages_with_template_loops')),
  },
  {
    name: 'missing template',
    text: '{{Nope}}',
    html: ['<a href="/w/index.php?title=Template:Nope&amp;action=edit&amp;redlink=1" class="new" title="Template:Nope (page does not exist)">Template:Nope</a>'],
  },
  { name: 'template redirect', text: '{{Redirected|r}}', html: ['Hello r and nobody!'] },
  { name: 'includeonly / noinclude / onlyinclude', text: '{{Only}}', html: ['<p>O\n</p>'] },
  { name: 'template table', text: '{{Infobox|title=T|body=B}}', html: ['<table class="infobox">\n<tbody><tr>\n<th>T\n</th></tr>\n<tr>\n<td>B\n</td></tr></tbody></table>'] },
  { name: 'template list at line start', text: 'x {{List}}', html: ['<ul><li>one</li>\n<li>two</li></ul>'] },
  {
    name: 'heading from template',
    text: '{{Section}}',
    check: (r) =>
      assert.deepEqual(
        r.sections.map((s) => [s.index, s.fromtitle, s.byteoffset]),
        [['T-1', 'Template:Section', null]],
      ),
  },
  {
    name: 'category from template, sort key',
    text: '{{Categorize}} [[Category:Existing|Key]]',
    not: [/Category:/],
    check: (r) =>
      assert.deepEqual(r.categories, [
        { dbkey: 'From_template', sortkey: '', exists: false },
        { dbkey: 'Existing', sortkey: 'Key', exists: true },
      ]),
  },
  {
    name: 'parser functions',
    text: '{{#if:x|y|n}} {{#ifeq:1|01|eq|ne}} {{#switch:b|a=A|b=B|#default=D}} {{#expr:2^10}} {{#ifexpr:1>2|y|n}} {{#iferror:{{#expr:1/0}}|err}}',
    html: ['y eq B 1024 n err'],
  },
  {
    name: 'string functions and case',
    text: '{{lc:ABC}} {{uc:abc}} {{ucfirst:abc}} {{padleft:7|3}} {{formatnum:1234567.5}} {{plural:2|item|items}} {{#titleparts:A/B/C|1|2}} {{urlencode:a b&c}}',
    html: ['abc ABC Abc 007 1,234,567.5 items B a+b%26c'],
  },
  {
    name: 'magic words',
    text: '{{PAGENAME}} {{NAMESPACE}}|{{FULLPAGENAME}} {{SITENAME}} {{CURRENTYEAR}}',
    html: [`Page name Talk|Talk:Page name Quire ${new Date().getUTCFullYear()}`],
    check: (r) => assert.equal(r.limits.volatile, true),
  },
  { name: 'DISPLAYTITLE and DEFAULTSORT', text: "{{DISPLAYTITLE:''Test''}}{{DEFAULTSORT:Zed}}", check: (r) => assert.deepEqual([r.displayTitle, r.properties.defaultsort], ['<i>Test</i>', 'Zed']) },
  {
    name: 'references',
    text: 'a<ref>one</ref> b<ref name="n">two</ref> c<ref name="n"/>\n<references/>',
    html: [
      '<sup id="cite&#95;ref-1" class="reference"><a href="#cite_note-1">&#91;1&#93;</a></sup>',
      '<li id="cite&#95;note-n-2"><span class="mw-cite-backlink">↑ <sup><a href="#cite_ref-n_2-0">2.0</a></sup> <sup><a href="#cite_ref-n_2-1">2.1</a></sup></span>',
    ],
  },
  { name: 'references without list', text: 'a<ref>x</ref>', html: ['<div class="mw-references-wrap"><ol class="references">'] },
  { name: 'nowiki and pre', text: "<nowiki>''[[x]]''</nowiki> <pre>a<b>c</pre>", html: ["''[[x]]''", '<pre>a&lt;b&gt;c</pre>'] },
  {
    name: 'missing image, thumb',
    text: '[[File:None.png|thumb|200px|Cap]]',
    html: [
      '<div class="thumb tright"><div class="thumbinner" style="width:202px;"><a href="/w/index.php?title=Special:Upload&amp;wpDestFile=None.png" class="new" title="File:None.png">File:None.png</a>  <div class="thumbcaption">Cap</div></div></div>',
    ],
    check: (r) => assert.deepEqual(r.images, ['None.png']),
  },
  {
    name: 'uploaded image scaled',
    text: '[[File:Pic.png|100px|A pic]]',
    html: [
      '<img alt="A pic" src="/w/images/thumb/a/ab/Pic.png/100px-Pic.png" decoding="async" width="100" height="75" srcset="/w/images/thumb/a/ab/Pic.png/150px-Pic.png 1.5x, /w/images/thumb/a/ab/Pic.png/200px-Pic.png 2x" />',
    ],
  },
  { name: 'gallery', text: '<gallery>\nFile:Pic.png|One\n</gallery>', html: ['<ul class="gallery mw-gallery-traditional">', 'One'] },
  {
    name: 'redirect page',
    text: '#REDIRECT [[Main Page]]',
    html: ['<div class="redirectMsg"><p>Redirect to:</p><ul class="redirectText"><li><a href="/wiki/Main_Page" title="Main Page">Main Page</a></li></ul></div>'],
    check: (r) => assert.deepEqual(r.redirect, { ns: 0, dbkey: 'Main_Page', fragment: '' }),
  },
  { name: 'horizontal rule and html', text: '----\n<div class="x" onclick="y">d</div>', html: ['<hr />', '<div class="x">d</div>'] },
  { name: 'unsafe html escaped', text: '<script>x</script>', html: ['&lt;script&gt;x&lt;/script&gt;'] },
  {
    name: 'Parsoid output: sections and transclusions',
    parsoid: true,
    text: 'Lead {{Hello|p}}\n\n== H ==\n[[Main Page]]',
    check: (r) => {
      const b = r.parsoidBody ?? '';
      assert.match(
        b,
        /^<section data-mw-section-id="0" id="mwAQ"><p id="mwAg">Lead <span about="#mwt1" typeof="mw:Transclusion" data-mw='\{"parts":\[\{"template":\{"target":\{"wt":"Hello","href":".\/Template:Hello"\},"params":\{"1":\{"wt":"p"\}\},"i":0\}\}\]\}' id="mwAw">Hello p and nobody!<\/span><\/p>/,
      );
      assert.match(
        b,
        /<\/section><section data-mw-section-id="1" id="mwBA"><h2 id="H">H<\/h2>\n<p id="mwBQ"><a rel="mw:WikiLink" href=".\/Main_Page" title="Main Page" id="mwBg">Main Page<\/a><\/p><\/section>$/,
      );
    },
  },
];

describe('renderer corpus', () => {
  test('has at least 30 pages', () => assert.ok(CORPUS.length >= 30));
  for (const c of CORPUS) {
    test(c.name, async () => {
      const r = await renderTest(c.text, { pages: wiki, title: c.name === 'magic words' ? 'Talk:Page name' : 'Test', req: c.parsoid ? { mode: 'parsoid' } : {} });
      const html = r.html;
      if (!c.parsoid) assert.match(html, /^<div class="mw-parser-output">[\s\S]*<!-- \nNewPP limit report[\s\S]*-->\n<\/div>$/);
      for (const h of c.html ?? []) {
        if (typeof h === 'string') assert.ok(html.includes(h), `expected ${JSON.stringify(h)} in\n${html}`);
        else assert.match(html, h);
      }
      for (const n of c.not ?? []) assert.doesNotMatch(html.replace(/<!--[\s\S]*?-->/g, ''), n);
      c.check?.(r);
    });
  }
  test('expandtemplates mode returns wikitext with tags kept', async () => {
    const r = await renderTest('{{Hello|x}} <ref>{{Hello}}</ref>', { pages: wiki, req: { expandOnly: true } });
    assert.equal(r.html, 'Hello x and nobody! <ref>{{Hello}}</ref>');
  });
});
