/*
 * Cite as MediaWiki 1.39 renders it (cases from Cite's citeParserTests.txt and the reference wiki):
 * dir=, error messages of Cite's i18n with the tracking category, groups, list-defined refs and
 * responsive lists.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTest } from './testing.js';

const body = async (text: string) => {
  const r = await renderTest(text, { req: { limitReport: false } });
  return { html: r.html.replace(/^<div class="mw-parser-output">|<\/div>$/g, '').replace(/\n/g, ''), categories: r.categories.map((c) => c.dbkey) };
};
const ERR = (msg: string) => `<span class="error mw-ext-cite-error" lang="en" dir="ltr">Cite error: ${msg}</span>`;

describe('Cite', () => {
  test('dir="rtl" puts a class on the list item', async () => {
    const { html } = await body('a<ref dir="rtl">x</ref>\n<references/>');
    assert.ok(html.includes('<li id="cite&#95;note-1" class="mw-cite-dir-rtl"><span class="mw-cite-backlink">'), html);
  });

  test('an invalid dir is an error', async () => {
    const { html, categories } = await body('a<ref dir="up">x</ref>');
    assert.ok(html.includes(ERR('Invalid <code>dir="up"</code>, must be <code>ltr</code> or <code>rtl</code>')), html);
    assert.deepEqual(categories, ['Pages_with_reference_errors']);
  });

  test('errors have Cite’s wording and the tracking category', async () => {
    const { html, categories } = await body('<ref name="0">Zero</ref>\n\n<ref />\n\n<ref name="foo" />\n\n<references />');
    assert.ok(html.includes(ERR('Invalid <code>&lt;ref&gt;</code> tag; name cannot be a simple integer. Use a descriptive title')), html);
    assert.ok(html.includes(ERR('The opening <code>&lt;ref&gt;</code> tag is malformed or has a bad name')), html);
    // cite_error_references_no_text, without a reference-text span.
    assert.ok(html.includes(`<a href="#cite_ref-foo_1-0">↑</a></span> ${ERR('Invalid <code>&lt;ref&gt;</code> tag; no text was provided for refs named <code>foo</code>')}</li>`), html);
    assert.deepEqual(categories, ['Pages_with_reference_errors']);
  });

  test('no error, no tracking category', async () => {
    assert.deepEqual((await body('a<ref>x</ref>')).categories, []);
  });

  test('a group list has no data-mw-group; a group without <references> is an error', async () => {
    const { html } = await body('a<ref group="g">x</ref><references group="g"/>b<ref group="h">y</ref>');
    assert.ok(html.includes('<div class="mw-references-wrap"><ol class="references"><li id="cite&#95;note-1">'), html);
    assert.ok(html.endsWith(`<br />${ERR('<code>&lt;ref&gt;</code> tags exist for a group named "h", but no corresponding <code>&lt;references group="h"/&gt;</code> tag was found')}</p>`), html);
  });

  test('list-defined refs count no use; unknown ones are errors after the list', async () => {
    const { html } = await body('<ref name="foo" />\n\n<references>\n<ref name="foo">BAR</ref>\n<ref name="unused">x</ref>\n</references>');
    assert.ok(html.includes('<span class="mw-cite-backlink"><a href="#cite_ref-foo_1-0">↑</a></span> <span class="reference-text">BAR</span>'), html);
    assert.ok(html.endsWith(`<p>${ERR('<code>&lt;ref&gt;</code> tag with name "unused" defined in <code>&lt;references&gt;</code> is not used in prior text.')}</p>`), html);
  });

  test('responsive lists: columns past 10 refs, no wrapper with responsive="0"', async () => {
    const many = '<ref>x</ref>'.repeat(11);
    assert.ok((await body(`${many}<references/>`)).html.includes('<div class="mw-references-wrap mw-references-columns"><ol class="references">'));
    const plain = (await body(`${many}<references responsive="0"/>`)).html;
    assert.ok(plain.includes('<ol class="references">') && !plain.includes('mw-references-wrap'), plain);
  });

  test('backlink labels are padded to the width of the count; runs of underscores in ids are one', async () => {
    const { html } = await body(`${'<ref name="a__b">x</ref>'.repeat(11)}<references/>`);
    assert.ok(html.includes('<a href="#cite_ref-a_b_1-0">1.00</a>'), html);
    assert.ok(html.includes('<a href="#cite_ref-a_b_1-10">1.10</a>'), html);
  });
});
