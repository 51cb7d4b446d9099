/*
 * Links and switches as MediaWiki 1.39 renders them (parserTests.txt cases and the reference
 * wiki): protocol-relative text is no free link, [[This page#s]] is no self-link, the
 * case-insensitive double-underscore switches and their page properties.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest } from './testing.js';

const pages = new MemoryLookup({ 'Main Page': 'x' });
const render = (text: string, title = 'Test') => renderTest(text, { title, pages, req: { limitReport: false } });
const body = async (text: string, title?: string) => (await render(text, title)).html.replace(/^<div class="mw-parser-output">|<\/div>$/g, '');

describe('links and switches', () => {
  test('//example.com in running text is no link', async () => {
    assert.equal(await body('x //example.com/Foo y'), '<p>x //example.com/Foo y\n</p>');
  });

  test('a link to a section of the page itself is an ordinary link; [[#s]] stays in the page', async () => {
    assert.equal(await body('[[Main Page#section]]', 'Main Page'), '<p><a href="/wiki/Main_Page#section" title="Main Page">Main Page#section</a>\n</p>');
    assert.equal(await body('[[#s]] [[Main Page]]', 'Main Page'), '<p><a href="#s">#s</a> <a class="mw-selflink selflink">Main Page</a>\n</p>');
  });

  test('case-insensitive switches are switches; the others only in capitals; each is a page property', async () => {
    const r = await render('__notoc__ __NoEditSection__ __newsectionlink__ __NOTC__\n== a ==\n== b ==\n== c ==\n== d ==');
    assert.equal(r.showToc, false);
    assert.ok(!r.html.includes('mw-editsection'), r.html);
    assert.ok(r.html.includes('__newsectionlink__'), r.html);
    assert.deepEqual(r.properties, { notoc: '', noeditsection: '', notitleconvert: '' });
  });

  test('__TOC__ is the toc page property; without headings it leaves no mark and no <pre>', async () => {
    const r = await render('a\n__TOC__ x __toc__');
    assert.deepEqual(r.properties, { toc: '' });
    assert.ok(!r.html.includes('\x7f') && !r.html.includes('<pre>'), r.html);
  });
});

describe('link syntax edge cases (parserTests.txt Internal links)', () => {
  test('nothing after the pipe is no link', async () => {
    assert.equal(await body('[[Main Page|]] [[Category:Foo|]] [[Main Page| ]]'), '<p>[[Main Page|]] [[Category:Foo|]] <a href="/wiki/Main_Page" title="Main Page"> </a>\n</p>');
  });

  test('a fragment keeps # and non-ASCII characters as written', async () => {
    assert.equal(await body('[[Main Page#And#Link]] [[#æ v]]'), '<p><a href="/wiki/Main_Page#And#Link" title="Main Page">Main Page#And#Link</a> <a href="#æ_v">#æ v</a>\n</p>');
  });
});

describe('external links as Parser::handleExternalLinks and handleMagicLinks make them', () => {
  test('a URL in a link label is no second link', async () => {
    assert.equal(
      await body('[http://example.com http://example.org] [[Main Page|http://url/]]'),
      '<p><a rel="nofollow" class="external text" href="http://example.com">http://example.org</a> <a href="/wiki/Main_Page" title="Main Page">http://url/</a>\n</p>',
    );
  });

  test('[[http://…]] is a bracketed external link between brackets', async () => {
    assert.equal(await body('[[http://www.example.com]]'), '<p>[<a rel="nofollow" class="external autonumber" href="http://www.example.com">[1]</a>]\n</p>');
  });

  test('free URLs: trailing punctuation, ")" without "(", "&lt;" and no-break spaces end them; a lone protocol is no link', async () => {
    assert.equal(
      await body('http://example.com\\ http://example.com) (http://a.org/x_(y)) http://b.org/&lt;x&gt; http://c.org&nbsp;y http:// http://; größhttps://foo.org'),
      '<p><a rel="nofollow" class="external free" href="http://example.com">http://example.com</a>\\ <a rel="nofollow" class="external free" href="http://example.com">http://example.com</a>) (<a rel="nofollow" class="external free" href="http://a.org/x_(y))">http://a.org/x_(y))</a> <a rel="nofollow" class="external free" href="http://b.org/">http://b.org/</a>&lt;x&gt; <a rel="nofollow" class="external free" href="http://c.org">http://c.org</a>&#160;y http:// http://; größhttps://foo.org\n</p>',
    );
  });

  test('URLs are cleaned: references decoded, brackets and pipes percent-encoded, IPv6 hosts kept', async () => {
    assert.equal(
      await body('http://example.com/?a&#x5B;&#x5D;=b [http://&#x20;www.example.org x] http://[::1]/loopback'),
      '<p><a rel="nofollow" class="external free" href="http://example.com/?a%5B%5D=b">http://example.com/?a%5B%5D=b</a> <a rel="nofollow" class="external text" href="http://+www.example.org">x</a> <a rel="nofollow" class="external free" href="http://[::1]/loopback">http://[::1]/loopback</a>\n</p>',
    );
  });

  test('"<" ends a bracketed URL and starts its label', async () => {
    assert.equal(await body('[http://www.example.com/<hello> stuff]'), '<p><a rel="nofollow" class="external text" href="http://www.example.com/">&lt;hello&gt; stuff</a>\n</p>');
  });
});

describe('magic words', () => {
  test('namespace words of a page and its talk page; a few variables in any case', async () => {
    assert.equal(await body('{{TALKSPACE}}|{{SUBJECTSPACE}}|{{TALKPAGENAMEE}}|{{SUBJECTPAGENAME}}', 'User talk:Ævar B'), '<p>User talk|User|User_talk:%C3%86var_B|User:Ævar B\n</p>');
    assert.equal(await body('{{TALKSPACE}}|{{SUBJECTSPACE}}|{{PAGELANGUAGE}}|{{sCrIpTpAtH}}'), '<p>Talk||en|/w\n</p>');
  });

  test('page names are escaped as wfEscapeWikiText escapes them', async () => {
    assert.equal(await body('{{PAGENAME}}', '*A; http://example.com/'), '<p>&#42;A&#59; http&#58;//example.com/\n</p>');
  });
});

describe('block levels as BlockLevelPass makes them', () => {
  test('a `;` item after a `:` item opens a new definition list', async () => {
    assert.equal(await body(':;*foo\n::*bar\n:;baz'), '<dl><dd><dl><dt><ul><li>foo</li>\n<li>bar</li></ul></dt></dl>\n<dl><dt>baz</dt></dl></dd></dl>\n');
  });

  test('blank lines between HTML list items make no paragraphs', async () => {
    assert.equal(await body('<ol>\n<li>foo</li>\n\n\n\n<li>foo</li>\n</ol>'), '<ol>\n<li>foo</li>\n\n\n\n<li>foo</li>\n</ol>');
  });
});

describe('links: targets and interwiki URLs', () => {
  test('a %XX target is read decoded; an apostrophe is %27 in a path', async () => {
    assert.equal(
      await body("[[7%25 Solution]] [[A'b]]"),
      '<p><a href="/w/index.php?title=7%25_Solution&amp;action=edit&amp;redlink=1" class="new" title="7% Solution (page does not exist)">7% Solution</a> <a href="/w/index.php?title=A%27b&amp;action=edit&amp;redlink=1" class="new" title="A\'b (page does not exist)">A\'b</a>\n</p>',
    );
  });

  test('interwiki links: the fragment after the URL, a colon after the prefix dropped, an empty title without "?"', async () => {
    assert.equal(
      await body('[[meatball:Soft Security#a b]] [[meatball::Category:Hello]] [[MeatBall:]]'),
      '<p><a href="http://meatballwiki.org/wiki/Soft_Security#a_b" class="extiw" title="meatball:Soft Security">meatball:Soft Security#a b</a> <a href="http://meatballwiki.org/wiki/Category:Hello" class="extiw" title="meatball:Category:Hello">meatball::Category:Hello</a> <a href="http://meatballwiki.org/wiki/" class="extiw" title="meatball:">MeatBall:</a>\n</p>',
    );
  });
});

describe('link labels are held whole, as MediaWiki link holders', () => {
  test('no URLs or external links in a label; its quotes are its own; a third ] joins a label with [', async () => {
    assert.equal(
      await body("[[Main Page|[http://example.com/]]] ''a [[Main Page|b ''c'' d]]!''"),
      '<p><a href="/wiki/Main_Page" title="Main Page">[http://example.com/]</a> <i>a <a href="/wiki/Main_Page" title="Main Page">b <i>c</i> d</a>!</i>\n</p>',
    );
  });
});

describe('prefixes that are Object properties', () => {
  test('[[constructor:foo]] is a page link, not an interwiki link', async () => {
    assert.equal(
      await body('[[constructor]] [[constructor:foo]]'),
      '<p><a href="/w/index.php?title=Constructor&amp;action=edit&amp;redlink=1" class="new" title="Constructor (page does not exist)">constructor</a> <a href="/w/index.php?title=Constructor:foo&amp;action=edit&amp;redlink=1" class="new" title="Constructor:foo (page does not exist)">constructor:foo</a>\n</p>',
    );
  });
});

describe('tables as Parser::handleTables makes them', () => {
  test('"!!" inside a tag is no cell separator; a row without cells makes no empty cell', async () => {
    assert.equal(await body('{|\n!hi<div class="!!">ha</div>ho\n|}'), '<table>\n<tbody><tr>\n<th>hi<div class="!!">ha</div>ho\n</th></tr></tbody></table>');
    assert.equal(await body('{|\n|-\n|}'), '<table>\n\n</table>');
  });
});

describe('table of contents lines as Parser::formatHeadings makes them', () => {
  test('only some tags stay, without attributes but a span dir; an empty span goes', async () => {
    const r = await render('__TOC__\n== <span id="old"></span>New ==\n== <sup class="x">Hi</sup> <strike>s</strike> <del>d</del> <span dir="rtl">r</span> ==');
    assert.deepEqual(
      r.sections.map((s) => s.line),
      ['New', '<sup>Hi</sup> <strike>s</strike> d <span dir="rtl">r</span>'],
    );
  });
});

describe('links without a label', () => {
  test('show the target as written: leading spaces and the escaping colon dropped, nothing trimmed; a second colon is no link', async () => {
    assert.equal(
      await body('[[Main Page ]] [[::Main Page]] [[ :Main Page]] [[meatball:Olteni&#0355;a]]'),
      '<p><a href="/wiki/Main_Page" title="Main Page">Main Page </a> [[::Main Page]] <a href="/wiki/Main_Page" title="Main Page">Main Page</a> <a href="http://meatballwiki.org/wiki/Olteni%C5%A3a" class="extiw" title="meatball:Olteniţa">meatball:Olteniţa</a>\n</p>',
    );
  });
});

describe('links that are no links', () => {
  test('a label holding a link, a title with a reference left, an interwiki title with < or >', async () => {
    assert.equal(
      await body('[[Hi|[[Main Page]]]] [[Foo &amp;amp; bar]] [[meatball:Foo&lt;Bar]] [[Caf&eacute;]]'),
      '<p>[[Hi|<a href="/wiki/Main_Page" title="Main Page">Main Page</a>]] [[Foo &amp;amp; bar]] [[meatball:Foo&lt;Bar]] <a href="/w/index.php?title=Caf%C3%A9&amp;action=edit&amp;redlink=1" class="new" title="Café (page does not exist)">Café</a>\n</p>',
    );
  });

  test('what follows a language link stays', async () => {
    assert.equal(
      await body('[[Main Page]][[fr:Alimento]]\n\n[[Main Page]]'),
      '<p><a href="/wiki/Main_Page" title="Main Page">Main Page</a>\n</p><p><a href="/wiki/Main_Page" title="Main Page">Main Page</a>\n</p>',
    );
  });
});

test('page-name E words are escaped as wfEscapeWikiText escapes them', async () => {
  assert.equal(await body('{{PAGENAMEE}}', '*RFC 1234 http://example.com/'), '<p>&#42;RFC_1234_http&#58;//example.com/\n</p>');
});

test('TOC anchors do not collide with a heading that already has the suffix', async () => {
  const r = await render('__FORCETOC__\n==Headline 2==\n==Headline==\n==Headline 2==\n==Headline==');
  assert.deepEqual(
    r.sections.map((s) => s.anchor),
    ['Headline_2', 'Headline', 'Headline_2_2', 'Headline_3'],
  );
});

test('an attribute of <pre> keeps a line break given as a reference', async () => {
  assert.equal(await body('<pre dir="&#10;"></pre>'), '<pre dir="&#10;"></pre>');
});

test('a raw line break in an attribute of <pre> is folded', async () => {
  assert.equal(await body('<pre class="one\ntwo">hi</pre>'), '<pre class="one two">hi</pre>');
});
