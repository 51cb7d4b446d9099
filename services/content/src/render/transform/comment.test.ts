/* Autocomment links of formatted comments: to the page's section, or on the same page to the bare fragment. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatComment, formatComments } from './comment.js';
import type { PageLookup } from '../types.js';
import { TitleCodec } from '../../title/codec.js';
import { NamespaceTable } from '../../title/namespaces.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));
const lookup: PageLookup = { sources: async () => new Map(), exist: async () => new Map(), files: async () => new Map() };
const FOO = { ns: 0, dbkey: 'Foo' };

test('an autocomment links to the section of its page, or on that page itself to the fragment (a new section summary)', async () => {
  assert.equal(
    await formatComment('/* Hello */ new section', FOO, codec, lookup),
    '<span dir="auto"><span class="autocomment"><a href="/wiki/Foo#Hello" title="Foo">→\u200eHello</a>: </span> new section</span>',
  );
  assert.equal(await formatComment('/* Hello */ new section', FOO, codec, lookup, true), '<span dir="auto"><span class="autocomment"><a href="#Hello">→\u200eHello</a>: </span> new section</span>');
});

test('formatComments without a page: autocomments are not linked (rows that name no page, as the recent changes feed)', async () => {
  const [html] = await formatComments([{ comment: '/* Sec */ first [[#x|y]]' }], codec, lookup);
  assert.equal(html, '<span dir="auto"><span class="autocomment">Sec: </span> first [[#x|y]]</span>');
});
