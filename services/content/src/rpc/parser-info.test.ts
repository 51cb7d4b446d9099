import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceTable } from '../title/namespaces.js';
import { TitleCodec } from '../title/codec.js';
import { parserInfo } from './parser-info.js';

const info = parserInfo(new TitleCodec(new NamespaceTable('Quire')));

test('variables: the MediaWiki ids the renderer answers, in MediaWiki order, and none it does not', () => {
  assert.deepEqual(info.variables.slice(0, 3), ['!', '=', 'currentmonth']);
  for (const id of ['pagename', 'fullpagenamee', 'revisionid', 'revisionuser', 'revisiontimestamp', 'sitename', 'currenttimestamp']) assert.ok(info.variables.includes(id), id);
  // Site counters are not variables of Quire's renderer ({{NUMBEROFARTICLES}} transcludes a template).
  assert.ok(!info.variables.includes('numberofarticles'));
});

test('function hooks without "#", extension tags, file extensions', () => {
  for (const id of ['if', 'switch', 'expr', 'tag', 'lc', 'padleft', 'displaytitle']) assert.ok(info.functionHooks.includes(id), id);
  assert.ok(!info.functionHooks.some((h) => h.startsWith('#')));
  assert.ok(!info.functionHooks.includes('gender'));
  assert.deepEqual(info.extensionTags, ['pre', 'nowiki', 'gallery', 'indicator', 'ref', 'references']);
  assert.deepEqual(info.fileExtensions, ['png', 'gif', 'jpg', 'jpeg', 'webp', 'svg', 'pdf']);
});

test('magic words carry MediaWiki synonyms and case sensitivity for what is supported', () => {
  const byName = new Map(info.magicWords.map((m) => [m.name, m]));
  assert.deepEqual(byName.get('notoc'), { name: 'notoc', aliases: ['__NOTOC__'], caseSensitive: false });
  assert.deepEqual(byName.get('redirect'), { name: 'redirect', aliases: ['#REDIRECT'], caseSensitive: false });
  assert.equal(byName.get('pagename')?.caseSensitive, true);
  assert.deepEqual(byName.get('if')?.aliases, ['if']);
  assert.equal(byName.get('numberofarticles'), undefined);
  // Every listed variable and function hook has its magic word.
  for (const id of [...info.variables, ...info.functionHooks]) assert.ok(byName.has(id), id);
});

test("language variants: the languages the renderer converts (Serbian), with MediaWiki's fallbacks", () => {
  assert.deepEqual(info.languageVariants, [
    {
      language: 'sr',
      variants: [
        { variant: 'sr', fallbacks: ['sr-ec'] },
        { variant: 'sr-ec', fallbacks: ['sr'] },
        { variant: 'sr-el', fallbacks: ['sr'] },
      ],
    },
  ]);
});

test('interwiki map: every prefix the renderer links, interlanguage ones with their language name', () => {
  const byPrefix = new Map(info.interwikis.map((i) => [i.prefix, i]));
  assert.ok(info.interwikis.length > 50);
  assert.deepEqual(byPrefix.get('de'), { prefix: 'de', url: 'https://de.wikipedia.org/wiki/$1', language: 'Deutsch' });
  assert.deepEqual(byPrefix.get('arxiv'), { prefix: 'arxiv', url: 'https://www.arxiv.org/abs/$1', language: '' });
});
