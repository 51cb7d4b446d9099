import test from 'node:test';
import assert from 'node:assert/strict';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import { hasPageLink, redirectTarget } from './wikitext.js';
import { sha1Base36 } from './sha1.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));

test('redirect targets as WikitextContent reads them', () => {
  assert.deepEqual(redirectTarget(codec, '#REDIRECT [[foo bar#Sec]]'), { ns: 0, dbkey: 'Foo_bar', fragment: 'Sec' });
  assert.deepEqual(redirectTarget(codec, '  #redirect:[[Talk:X|label]] trailing'), { ns: 1, dbkey: 'X', fragment: '' });
  assert.deepEqual(redirectTarget(codec, '#REDIRECT [[Caf%C3%A9]]'), { ns: 0, dbkey: 'Café', fragment: '' });
  assert.deepEqual(redirectTarget(codec, '#REDIRECT [[100%]]'), { ns: 0, dbkey: '100%', fragment: '' });
  assert.equal(redirectTarget(codec, 'Text\n#REDIRECT [[Foo]]'), undefined);
  assert.equal(redirectTarget(codec, '#REDIRECT [[a[b]]'), undefined);
  assert.equal(redirectTarget(codec, '#REDIRECT [[#Section]]'), undefined);
  assert.equal(redirectTarget(codec, '#REDIRECT [[Special:Userlogout]]'), undefined);
  assert.deepEqual(redirectTarget(codec, '#REDIRECT [[Special:RecentChanges]]'), { ns: -1, dbkey: 'RecentChanges', fragment: '' });
});

test('only links that reach pagelinks make a page countable', () => {
  assert.equal(hasPageLink(codec, 'See [[Main Page]].'), true);
  assert.equal(hasPageLink(codec, 'See [[red link|here]].'), true);
  assert.equal(hasPageLink(codec, '[[:Category:Cats]]'), true);
  assert.equal(hasPageLink(codec, 'Only [https://example.org external] links.'), false);
  assert.equal(hasPageLink(codec, '[[Category:Cats]] [[File:X.png|thumb]] [[Media:X.png]] [[Special:Search]] [[#Top]]'), false);
  assert.equal(hasPageLink(codec, '[[a{b]]'), false);
});

test('sha1 in base 36, zero-padded to 31 digits, as Wikimedia\\base_convert gives it', () => {
  // Values computed with MediaWiki's own Wikimedia\base_convert(sha1($text), 16, 36, 31).
  assert.equal(sha1Base36(''), 'phoiac9h4m842xq45sp7s6u21eteeq1');
  assert.equal(sha1Base36('abc'), 'jt72fo5t4yobf0qugwuczbwj07max7h');
});
