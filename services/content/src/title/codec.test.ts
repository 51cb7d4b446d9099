import test from 'node:test';
import assert from 'node:assert/strict';
import { MalformedTitleError, TitleCodec, ucfirst, type TitleErrorCode } from './codec.js';
import { NamespaceTable } from './namespaces.js';

// Every case was checked against MediaWiki 1.39 (action=query&titles=…) on a wiki named
// "AnchorWiki"; the expected value is the title MediaWiki reports, or its invalidreason.
const codec = new TitleCodec(new NamespaceTable('AnchorWiki'));

const valid: [input: string, prefixedText: string, ns: number][] = [
  ['talk:foo_bar', 'Talk:Foo bar', 1],
  ['Foo#bar', 'Foo', 0],
  ['Project:x', 'AnchorWiki:X', 4],
  ['Image:y.png', 'File:Y.png', 6],
  ['  main_page', 'Main page', 0],
  ['Main_Page', 'Main Page', 0],
  ['Main_Page#', 'Main Page', 0],
  ['WP:x', 'WP:x', 0],
  ['Special:Foo', 'Special:Foo', -1],
  ['Media:x.png', 'Media:X.png', -2],
  ['ßfoo', 'SSfoo', 0],
  ['ǆx', 'Ǆx', 0],
  ['ﬀx', 'FFx', 0],
  [':Talk:x', 'Talk:X', 1],
  ['Talk:Foo:bar', 'Talk:Foo:bar', 1],
  ['&amp;', '&', 0],
  ['Project_talk:A', 'AnchorWiki talk:A', 5],
  ['AnchorWiki:z', 'AnchorWiki:Z', 4],
  ['AnchorWiki talk:x:y', 'AnchorWiki talk:X:y', 5],
  ['Image_talk:b', 'File talk:B', 7],
  ['Special talk:X', 'Special talk:X', 0],
  ['Media talk:y', 'Media talk:y', 0],
  ['user:1.2.3.4', 'User:1.2.3.4', 2],
  ['user:01.02.003.4', 'User:1.2.3.4', 2],
  ['User:::1', 'User:0:0:0:0:0:0:0:1', 2],
  ['user_talk:fe80::1', 'User talk:FE80:0:0:0:0:0:0:1', 3],
  ['Foo  bar__baz', 'Foo bar baz', 0],
  ['Foo_#_bar', 'Foo', 0],
  ['Category:ab', 'Category:Ab', 14],
  ['ab:cd', 'Ab:cd', 0],
  ['en:Foo', 'En:Foo', 0],
  ['Talk:en:Foo', 'Talk:En:Foo', 1],
  ['Talk:Help', 'Talk:Help', 1],
  ['&eacute;t&eacute;', 'Été', 0],
  ['Foo&nbsp;bar', 'Foo bar', 0],
  ['a~~b', 'A~~b', 0],
  ['#frag', '', 0],
  [':#x', '', 0],
];

test('valid titles normalize as MediaWiki does', () => {
  for (const [input, expected, ns] of valid) {
    const t = codec.parse(input);
    assert.equal(codec.prefixedText(t.ns, t.dbkey), expected, input);
    assert.equal(t.ns, ns, input);
  }
});

test('the fragment is split off with spaces', () => {
  assert.deepEqual(codec.parse('Foo_bar#Some_section'), { ns: 0, dbkey: 'Foo_bar', fragment: 'Some section' });
  assert.equal(codec.prefixedDbKey(1, 'Foo_bar'), 'Talk:Foo_bar');
});

const invalid: [input: string, code: TitleErrorCode, reason: string][] = [
  ['a[b', 'title-invalid-characters', 'The requested page title contains invalid characters: "[".'],
  ['%41', 'title-invalid-characters', 'The requested page title contains invalid characters: "%41".'],
  ['a&amp;b;', 'title-invalid-characters', 'The requested page title contains invalid characters: "&b;".'],
  ['x&foo;y', 'title-invalid-characters', 'The requested page title contains invalid characters: "&foo;".'],
  ['a\tb', 'title-invalid-characters', 'The requested page title contains invalid characters: "\t".'],
  ['a&#x5B;b', 'title-invalid-characters', 'The requested page title contains invalid characters: "[".'],
  ['a&#1;b', 'title-invalid-utf8', 'The requested page title contains an invalid UTF-8 sequence.'],
  [':', 'title-invalid-empty', 'The requested page title is empty or contains only the name of a namespace.'],
  ['Help:', 'title-invalid-empty', 'The requested page title is empty or contains only the name of a namespace.'],
  ['Talk:', 'title-invalid-empty', 'The requested page title is empty or contains only the name of a namespace.'],
  ['Talk:#x', 'title-invalid-empty', 'The requested page title is empty or contains only the name of a namespace.'],
  ['a~~~', 'title-invalid-magic-tilde', 'The requested page title contains invalid magic tilde sequence (<nowiki>~~~</nowiki>).'],
  ['Talk::x', 'title-invalid-leading-colon', 'The requested page title contains an invalid colon at the beginning.'],
  ['::x', 'title-invalid-leading-colon', 'The requested page title contains an invalid colon at the beginning.'],
  ['Talk:File:x', 'title-invalid-talk-namespace', 'The requested page title refers to a talk page that cannot exist.'],
  ['Talk:Help talk:X', 'title-invalid-talk-namespace', 'The requested page title refers to a talk page that cannot exist.'],
  ['Talk:help:', 'title-invalid-talk-namespace', 'The requested page title refers to a talk page that cannot exist.'],
];
const RELATIVE = "Title has relative path. Relative page titles (./, ../) are invalid, because they will often be unreachable when handled by user's browser.";
for (const input of ['./a', 'a/../b', '..', 'Foo/./bar', 'Foo/.', 'Project:Foo/..']) invalid.push([input, 'title-invalid-relative', RELATIVE]);

test('invalid titles fail with MediaWiki reason and text', () => {
  for (const [input, code, reason] of invalid) {
    assert.throws(
      () => codec.parse(input),
      (e: unknown) => e instanceof MalformedTitleError && e.code === code && e.message === reason && e.input === input,
      input,
    );
  }
});

test('titles longer than 255 bytes are too long, special pages get 512', () => {
  const tooLong = 'The requested page title is too long. It must be no longer than 255 bytes in UTF-8 encoding.';
  assert.equal(codec.parse('a'.repeat(255)).dbkey.length, 255);
  assert.throws(() => codec.parse('a'.repeat(256)), { message: tooLong });
  // Bytes, not characters: 128 two-byte letters are 256 bytes.
  assert.throws(() => codec.parse('é'.repeat(128)), { code: 'title-invalid-too-long' });
  assert.equal(codec.parse(`Special:${'a'.repeat(512)}`).ns, -1);
  assert.throws(() => codec.parse(`Special:${'a'.repeat(513)}`), {
    message: 'The requested page title is too long. It must be no longer than 512 bytes in UTF-8 encoding.',
  });
});

test('ucfirst follows Language::ucfirst', () => {
  assert.equal(ucfirst('éa'), 'Éa');
  assert.equal(ucfirst('1a'), '1a');
  assert.equal(ucfirst('{a'), '{a');
  // Unicode 16 letters that PHP 8.2 does not uppercase stay as they are.
  assert.equal(ucfirst('\u{10D70}x'), '\u{10D70}x');
  assert.equal(ucfirst('𐐨x'), '𐐀x');
});

test('the project namespace is named after the site; canonical names and aliases still work', () => {
  const quire = new TitleCodec(new NamespaceTable('My wiki'));
  const t = quire.parse('project:Rules');
  assert.equal(quire.prefixedText(t.ns, t.dbkey), 'My wiki:Rules');
  assert.equal(quire.prefixedDbKey(t.ns, t.dbkey), 'My_wiki:Rules');
  assert.equal(quire.parse('MY_WIKI_talk:x').ns, 5);
  assert.equal(quire.parse('image talk:x').ns, 7);
});
