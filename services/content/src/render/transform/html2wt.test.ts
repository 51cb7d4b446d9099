/*
 * Round trip of the Parsoid-style HTML: wikitext → our /html body → htmlToWikitext gives the
 * wikitext back, for a corpus of pages written in MediaWiki's normal forms.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryLookup, renderTest } from '../testing.js';
import { htmlToWikitext } from './html2wt.js';

const wiki = new MemoryLookup({
  'Template:Echo': '{{{1}}}',
  'Template:Box': '<div class="box">{{{title|untitled}}}: {{{1}}}</div>',
  'Template:Two paragraphs': 'First paragraph.\n\nSecond paragraph.',
  'Template:Infobox': '{| class="infobox"\n! {{{name}}}\n|}',
  'Template:Cite web': '<span class="citation">{{{title}}}, {{{url}}}</span>',
  Existing: 'x',
  'Other page': 'y',
  'Redirect here': '#REDIRECT [[Existing]]',
  'Category:Animals': '',
});
wiki.addFile('Cat.jpg', { width: 800, height: 600, url: '/images/Cat.jpg', mime: 'image/jpeg' });

/** Each page's wikitext, which must come back unchanged. */
export const ROUND_TRIP_CORPUS: Record<string, string> = {
  'plain paragraphs': 'First paragraph with some text.\n\nSecond paragraph\nspanning two lines.',
  headings: '== Heading two ==\nText under it.\n\n=== Heading three ===\nMore text.\n\n==== Four ====\nDeep.',
  'bold and italic': "Some '''bold''', some ''italic'' and '''''both''''' in one line.",
  'bullet list': '* one\n* two\n** two point one\n** two point two\n* three',
  'numbered list': '# first\n# second\n## nested\n# third',
  'definition list': '; Term\n: Definition\n; Other term\n: Other definition',
  'mixed list': '* bullet\n*# numbered inside\n*# again\n* back',
  'indented text': ': indented once\n:: indented twice',
  'simple table': '{| class="wikitable"\n! Name\n! Value\n|-\n| a\n| 1\n|-\n| b\n| 2\n|}',
  'table with caption and attributes': '{| class="wikitable sortable" style="width: 50%"\n|+ A caption\n! scope="col" | Head\n|-\n| style="color: red" | Red cell\n|}',
  'internal links': 'See [[Existing]], [[Other page|the other page]] and [[Existing#Section|a section]].',
  'red links': 'A [[Missing page]] and a [[Missing page|labelled]] one.',
  'link trail': 'Many [[Existing]]s here.',
  'external links': 'Visit [https://example.org Example], [https://example.com] or https://example.net directly.',
  'templates positional': 'Say {{Echo|hello}} and {{Echo|world}}.',
  'templates named': '{{Box|title=Greeting|Body text}}',
  'template params out of order': '{{Box|title = Spaced|x}}',
  'template spanning blocks': 'Before.\n\n{{Two paragraphs}}\n\nAfter.',
  'template with a link parameter': "{{Cite web|title=''A page''|url=https://example.org}}",
  references: 'A claim.<ref>Source one.</ref> Another.<ref name="b">Source \'\'two\'\'.</ref> Again.<ref name="b" />\n\n== Notes ==\n<references />',
  nowiki: 'Literal <nowiki>[[not a link]]</nowiki> and <nowiki>{{not a template}}</nowiki>.',
  'images with options': '[[File:Cat.jpg|thumb|200px|A sitting cat]]\n\n[[File:Cat.jpg|left|alt=A cat]]',
  categories: 'Text.\n\n[[Category:Animals]]\n[[Category:Pets|Cat]]',
  redirect: '#REDIRECT [[Existing]]',
  'horizontal rule': 'Above.\n\n----\nBelow.',
  'html tags': 'Some <small>small</small> and <code>code</code> and <span class="x">span</span> text.',
  'escaped markup': "Two apostrophes <nowiki>''</nowiki> shown.",
  'template producing a table': '{{Infobox|name=Felix}}\n\nText after.',
  'parser function': 'Result: {{#if: yes | shown | hidden}}.',
  'magic word': 'This is {{PAGENAME}}.',
  'preformatted tag': '<pre>\n  kept   as is\n</pre>',
  gallery: '<gallery>\nFile:Cat.jpg|A cat\n</gallery>',
  'interwiki and section links': 'See [[wikipedia:Cat]], [[#Behaviour]] and [[:Category:Animals]].',
  'behaviour switch': '__NOTOC__\nText.',
  'language link': 'Text.\n\n[[fr:Chat]]',
  'mixed article':
    "'''Cats''' are [[Existing|animals]].<ref>Smith 2001.</ref>\n\n== Behaviour ==\n* They sleep.\n* They hunt [[Missing page|mice]].\n\n{| class=\"wikitable\"\n! Trait\n! Value\n|-\n| Legs\n| 4\n|}\n\n== References ==\n<references />\n\n[[Category:Animals]]",
};

async function roundTrip(text: string): Promise<string> {
  const r = await renderTest(text, { pages: wiki, req: { mode: 'parsoid' } });
  return htmlToWikitext(`<body>${r.parsoidBody ?? ''}</body>`);
}

describe('html → wikitext round trip', () => {
  test('the corpus is varied enough', () => assert.ok(Object.keys(ROUND_TRIP_CORPUS).length >= 20));
  for (const [name, text] of Object.entries(ROUND_TRIP_CORPUS)) {
    test(name, async () => assert.equal(await roundTrip(text), text));
  }

  test('edited HTML serializes in normal form', () => {
    const html = '<body><p>Plain <b>bold</b> <a rel="mw:WikiLink" href="./New_page" title="New page">new</a> [[text]]</p><ul><li>x</li></ul></body>';
    assert.equal(htmlToWikitext(html), "Plain '''bold''' [[New page|new]] <nowiki>[[</nowiki>text<nowiki>]]</nowiki>\n* x");
  });

  test("Parsoid's normalizations: empty headings go; a final heading or indented pre ends its line (as MediaWiki 1.39 answers)", () => {
    assert.equal(htmlToWikitext('<h2></h2>'), '');
    assert.equal(htmlToWikitext('<p>a</p><h2> </h2><p>b</p>'), 'a\n\nb');
    assert.equal(htmlToWikitext('<pre>hi ho</pre>'), ' hi ho\n');
    assert.equal(htmlToWikitext('<h2>x</h2>'), '== x ==\n');
    assert.equal(htmlToWikitext('<h2>x</h2><p>y</p>'), '== x ==\ny');
    assert.equal(htmlToWikitext('<p>a</p><hr>'), 'a\n----');
  });
});
