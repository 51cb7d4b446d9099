/*
 * The injection hunt: fast-check builds wikitext from fragments known to smuggle script (tags,
 * event handlers, URL schemes, CSS tricks, entity-encoded variants, broken nesting with
 * templates and links) and checks that no rendering lets any of it through.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHTMLAttribute } from 'entities/decode';
import fc from 'fast-check';
import { checkCss, cleanUrl, decodeCharReferences, normalizeCharReferences, removeHtmlTags, sanitizeAttributes } from './sanitizer.js';
import { MemoryLookup, renderTest } from './testing.js';

const FRAGMENTS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//x.js>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)">',
  '<span onmouseover="alert(1)">',
  '<div style="background:url(javascript:alert(1))">',
  '<div style="width: expression(alert(1))">',
  '<div style="x:\\65 xpression(alert(1))">',
  '<span style="behavior: url(x.htc)">',
  '<a href="javascript:alert(1)">',
  '[javascript:alert(1) x]',
  '[[javascript:alert(1)]]',
  '[//evil.example/"onmouseover="alert(1) x]',
  '<span title="&quot;onmouseover=alert(1)">',
  '<b/onclick=alert(1)>',
  "'''",
  "''",
  '{{',
  '}}',
  '[[',
  ']]',
  '|',
  '<',
  '>',
  '"',
  "'",
  '\n',
  ' ',
  '=',
  'http://x.example/?a="b',
  '<nowiki><script></nowiki>',
  '<pre><script>alert(1)</script></pre>',
  '<ref><script>x</script></ref>',
  '<references/>',
  '{{Evil}}',
  '{{Evil|<script>}}',
  '{{#tag:span|x|onclick=alert(1)}}',
  '{{#if:1|<span onclick=alert(1)>}}',
  '&#60;script&#62;',
  '&lt;script&gt;',
  '<math>x</math>',
  '<style>body{}</style>',
  '<object data="x">',
  '<embed src=x>',
  '<form action=javascript:alert(1)>',
  '<input onfocus=alert(1) autofocus>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=import href=x>',
  '<base href="javascript:/">',
  '<span style="font-family: \'x\';}</style><script>">',
  '[[File:X.png|link=javascript:alert(1)]]',
  '[[File:X.png|alt="><script>]]',
  '[[File:Pic.png|link=javascript:alert(1)]]',
  '[[File:Pic.png|link=jav&#x61;script:alert(1)]]',
  '[[File:Pic.png|thumb|link=vbscript:x|c]]',
  '[[File:Pic.png|link=data:text/html,x]]',
  '[[File:Pic.png|link= javascript:x]]',
  '[[File:Pic.png|link=http://x.example/"onmouseover=alert(1)]]',
  '[[File:Pic.png|alt="><script>|link=//x.example/]]',
  '[[File:Pic.png|link=',
  '[[Media:Pic.png|javascript:x]]',
  '{{fullurl:javascript:alert(1)}}',
  '[{{fullurl:Main Page}} x]',
  '{{#tag:a|x|href=javascript:alert(1)}}',
  '{{#tag:ref|x|name="><script>"}}',
  '<span style="background:url(javascript:alert(1))">',
  '<span style="background:&#117;rl(x)">',
  '[jav&#x61;script:alert(1) x]',
  '[java\tscript:alert(1) x]',
  '<link itemprop="url" href="javascript:alert(1)">',
  '<link itemprop="url" href=" jav&#x61;script:x">',
  '{| onclick="alert(1)"\n| x\n|}',
  '{|\n| style="background:url(x)" | y\n|}',
  '<div data-mw="x" data-ok="1">',
  '<span ONCLICK="x">',
  '<span on\nclick="x">',
  'javascript&#58;alert(1)',
  '<a>',
  '</div>',
  '<table><tr><td onclick=x>',
];

/** Anything that would run script or load a resource from attacker-chosen markup. */
function assertSafe(html: string, source: string): void {
  const tags = html.match(/<[a-zA-Z][^>]*>/g) ?? [];
  for (const tag of tags) {
    const name = /^<([a-zA-Z0-9]+)/.exec(tag)![1]!.toLowerCase();
    assert.ok(!['script', 'iframe', 'object', 'embed', 'form', 'input', 'svg', 'style', 'base', 'math'].includes(name), `forbidden <${name}> from ${JSON.stringify(source)}: ${tag}`);
    // Attributes as a browser reads them: names, and values up to their closing quote.
    const attrs = [...tag.replace(/^<[a-zA-Z0-9]+/, '').matchAll(/\s([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g)].map((m) => ({
      name: m[1]!.toLowerCase(),
      value: m[2] ?? m[3] ?? m[4] ?? '',
    }));
    for (const { name: attr, value } of attrs) {
      assert.ok(!attr.startsWith('on'), `event handler from ${JSON.stringify(source)}: ${tag}`);
      if (['href', 'src', 'srcset', 'action', 'data', 'formaction', 'poster', 'xlink:href'].includes(attr)) {
        // The URL as a browser reads it: references decoded, controls and spaces dropped.
        const url = decodeHTMLAttribute(value).replace(/[\x00-\x20\x7f-\x9f\u00a0\u2000-\u200f\ufeff]/g, '');
        assert.ok(!/^(?:javascript|vbscript|data|livescript|file):/i.test(url), `script URL from ${JSON.stringify(source)}: ${tag}`);
      }
      if (attr === 'style') assert.ok(!/expression|url\s*\(|behavior|javascript/i.test(decodeHTMLAttribute(value)), `unsafe CSS from ${JSON.stringify(source)}: ${tag}`);
    }
    if (name === 'meta' || name === 'link') assert.ok(/itemprop=|rel="mw:/.test(tag), `<${name}> without itemprop from ${JSON.stringify(source)}`);
    // Every attribute value is quoted and closed: no raw quote breaks out of one.
    const rest = tag.replace(/^<[a-zA-Z0-9]+/, '').replace(/\/?>$/, '');
    assert.match(rest, /^(?:\s+[a-zA-Z][a-zA-Z0-9:_-]*(?:="[^"]*"|='[^']*')?)*\s*$/, `malformed attributes from ${JSON.stringify(source)}: ${tag}`);
  }
}

describe('sanitizer', () => {
  test('allowed tags keep safe attributes; the rest is text', () => {
    assert.equal(removeHtmlTags('<b class="x" onclick="y">b</b>'), '<b class="x">b</b>');
    assert.equal(removeHtmlTags('<script>x</script>'), '&lt;script&gt;x&lt;/script&gt;');
    assert.equal(removeHtmlTags('<span style="color:red">r</span>'), '<span style="color:red">r</span>');
    assert.equal(removeHtmlTags('<div>unclosed'), '<div>unclosed</div>');
    // Microdata href: any of $wgUrlProtocols with no space (Sanitizer's $hrefExp); relative or script URLs go.
    assert.equal(
      removeHtmlTags(
        '<link itemprop="url" href="mailto:a@b.c"><link itemprop="u" href="/wiki/X"><link itemprop="v" href="ftp://x.org/a"><link itemprop="w" href="https://x.org/a b"><link itemprop="x" href="jav&#x61;script:x">',
      ),
      '<link itemprop="url" href="mailto&#58;a@b.c" /><link itemprop="u" /><link itemprop="v" href="ftp&#58;//x.org/a" /><link itemprop="w" /><link itemprop="x" />',
    );
  });

  test('CSS that can load or run anything is refused', () => {
    for (const css of ['background:url(x)', 'width:expression(1)', 'x:\\65xpression(1)', 'behavior:url(a)', '-moz-binding:url(x)', 'a:b/*x*/url(y)', 'background:\\75rl(x)']) {
      assert.equal(checkCss(css), '/* insecure input */', css);
    }
    assert.equal(checkCss('color: red; margin: 1em'), 'color: red; margin: 1em');
  });

  test("a heading over a transclusion: its id carries no markup in either mode (found by the fuzz below), and the template-made URL is the link's", async () => {
    const pages = new MemoryLookup({ 'Main Page': 'x' });
    const source = '=[{{fullurl:Main Page}} x]=';
    for (const mode of ['legacy', 'parsoid'] as const) {
      const r = await renderTest(source, { pages, req: { mode } });
      const html = mode === 'parsoid' ? (r.parsoidBody ?? '') : r.html;
      assertSafe(html, source);
      assert.match(html, /<h1 id="x"|<span class="mw-headline" id="x"/);
      // The template made the link's URL: a link labelled x in both modes, not a bracketed free URL.
      assert.match(html, /<a rel="(?:mw:ExtLink )?nofollow" class="external text" href="http:\/\/[^"]+\/wiki\/Main_Page"(?: id="mw\w+")?>x<\/a>/, mode);
    }
  });

  test("an image's alt and title keep a caption's line break as a reference: no paragraph pass splits them (found by the fuzz below)", async () => {
    const pages = new MemoryLookup({});
    pages.addFile('Pic.png', { width: 400, height: 300, url: '/w/images/a/ab/Pic.png', mime: 'image/png' });
    const source = '[[File:Pic.png|link=<div style="width: expression(alert(1))">\n<script>alert(1)</script>]]';
    const r = await renderTest(source, { pages, req: { mode: 'legacy' } });
    assertSafe(r.html, source);
    assert.match(r.html, /<img alt="link=&#10;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
  });

  test('fuzz: no combination of injection fragments survives rendering', async () => {
    const pages = new MemoryLookup({ 'Template:Evil': '<span {{{1|}}} onclick="alert(1)">{{{1|}}}</span>[[{{{1}}}]]', 'Main Page': 'x' });
    // An existing file: link= and the image markup only show on files that exist.
    pages.addFile('Pic.png', { width: 400, height: 300, url: '/w/images/a/ab/Pic.png', mime: 'image/png' });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 12 }), fc.constantFrom('legacy' as const, 'parsoid' as const), async (parts, mode) => {
        const source = parts.join('');
        const r = await renderTest(source, { pages, req: { mode } });
        assertSafe(mode === 'parsoid' ? (r.parsoidBody ?? '') : r.html, source);
      }),
      { numRuns: 400 },
    );
  });
});

describe('tidying of text as MediaWiki 1.39', () => {
  const html = async (text: string) => (await renderTest(text, { req: { limitReport: false } })).html.replace(/^<div class="mw-parser-output">|<\/div>$/g, '');

  test('character references are normalized: &#X is one, names become numbers, unknown ones are escaped', async () => {
    assert.equal(await html('&#Xee; &nbsp; &foo; &#0; &NotEqualTilde; &amp; &rlm;'), '<p>&#xee; &#160; &amp;foo; &amp;#0; &#8770;&#824; &amp; &#8207;\n</p>');
  });

  test('a stray closing tag alone on its line leaves an empty paragraph, marked as tidying does', async () => {
    assert.equal(await html('</s>'), '<p class="mw-empty-elt">\n</p>');
    assert.equal(await html('a</s>b'), '<p>ab\n</p>');
    assert.equal(await html('<li></li>'), '<li class="mw-empty-elt"></li>');
  });

  test('only tabindex 0 is kept', async () => {
    assert.equal(await html('<span tabindex="1">a</span><span tabindex="0">b</span><span tabindex="-1">c</span>'), '<p><span>a</span><span tabindex="0">b</span><span>c</span>\n</p>');
  });

  test('French spacing: a no-break space before ? : ; ! % » not followed by a letter, and after «', async () => {
    assert.equal(await html('a ! b ? c : d ; e « f » g :é 50 %'), '<p>a&#160;! b&#160;? c&#160;: d&#160;; e «&#160;f&#160;» g :é 50&#160;%\n</p>');
    assert.equal(await html('<span title="a !">b</span>'), '<p><span title="a !">b</span>\n</p>');
  });
});

describe('Sanitizer details (MediaWiki 1.39)', () => {
  test('a reference named after an Object property is no reference', () => {
    assert.equal(normalizeCharReferences('&constructor; &amp;'), '&amp;constructor; &amp;');
    assert.equal(decodeCharReferences('&constructor;&#x41;&#0;&zwnj;'), '&constructor;A\uFFFD\u200c');
  });

  test('cleanUrl: references decoded, brackets, pipes and spaces encoded, ignored characters gone from the host', () => {
    assert.equal(cleanUrl('http://e&zwnj;xample.com/a&#x20;b|[c]'), 'http://example.com/a+b%7C%5Bc%5D');
    assert.equal(cleanUrl('http://[::1]:80/x'), 'http://[::1]:80/x');
  });

  test('a tag name runs to a space, slash or ">"; <div/> opens a div, <li/> is empty', () => {
    assert.equal(removeHtmlTags('<b→>x</b→> <s.foo>y</s>'), '&lt;b→&gt;x&lt;/b→&gt; &lt;s.foo&gt;y');
    assert.equal(removeHtmlTags('<div/>a<li/>'), '<div>a<li></li></div>');
  });

  test('an attribute value left unquoted at the end is read to the end; an empty style stays', () => {
    assert.equal(sanitizeAttributes('span', ' title="Hello world'), ' title="Hello world"');
    assert.equal(sanitizeAttributes('td', ' style= '), ' style=""');
    assert.equal(sanitizeAttributes('span', ' title="x" "y"=z a"b=c'), ' title="x"');
  });
});

test('data- attributes: no colon, no underscore, none reserved', () => {
  assert.equal(sanitizeAttributes('div', ' data-ok="fred" data-object-id="123" data-mw-x="1" data-ooui="2" data-bad:ns="3" data-a_b="4"'), ' data-ok="fred" data-object-id="123"');
});

test('a boolean attribute without a value is written empty, as MediaWiki writes it', () => {
  assert.equal(sanitizeAttributes('div', ' itemscope'), ' itemscope=""');
});
