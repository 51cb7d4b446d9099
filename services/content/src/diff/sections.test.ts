import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flatSections } from './sections.js';

// Expected values are MediaWiki 1.39's REST compare `sections` for the same texts.

test('headings: levels, trailing whitespace and comments, lines of "=", unicode byte offsets', () => {
  const text = [
    '== A ==  ',
    'text',
    '=== B ===',
    '<!-- == C == -->',
    '==D==<!-- c -->',
    '{{T|',
    '== In template ==',
    '}}',
    '<nowiki>',
    '== nowiki ==',
    '</nowiki>',
    '= One =',
    '====== Six ======',
    '======= Seven =======',
    '===',
    '=',
    '==',
    '== unbalanced =',
    '{{unclosed',
    '== after unclosed ==',
    '<pre>',
    '== in pre ==',
    '</pre>',
    '== Ünïcödé 日本 ==',
    'end',
  ].join('\n');
  assert.deepEqual(flatSections(text), [
    { level: 2, heading: '== A ==  ', offset: 0 },
    { level: 3, heading: '=== B ===', offset: 15 },
    { level: 2, heading: '==D==<!-- c -->', offset: 42 },
    { level: 1, heading: '= One =', offset: 116 },
    { level: 6, heading: '====== Six ======', offset: 124 },
    { level: 6, heading: '======= Seven =======', offset: 142 },
    { level: 1, heading: '===', offset: 164 },
    { level: 1, heading: '== unbalanced =', offset: 173 },
    { level: 2, heading: '== after unclosed ==', offset: 200 },
    { level: 2, heading: '== Ünïcödé 日本 ==', offset: 247 },
  ]);
});

test('headings inside tags and templates do not count; template calls within a heading do', () => {
  const text = [
    'before',
    '<ref>',
    '== in ref ==',
    '</ref>',
    '== {{tpl}} heading ==',
    '== x == y',
    ' <!-- -->== indented ==',
    '==a==',
    '== trailing comment == <!-- x -->',
    '<includeonly>',
    '== incl ==',
    '</includeonly>',
    '<noinclude>',
    '== noincl ==',
    '</noinclude>',
    '== last ==',
  ].join('\n');
  assert.deepEqual(flatSections(text), [
    { level: 2, heading: '== {{tpl}} heading ==', offset: 33 },
    { level: 2, heading: '==a==', offset: 89 },
    { level: 2, heading: '== trailing comment == <!-- x -->', offset: 95 },
    { level: 2, heading: '== noincl ==', offset: 181 },
    { level: 2, heading: '== last ==', offset: 207 },
  ]);
  assert.deepEqual(flatSections(''), []);
});
