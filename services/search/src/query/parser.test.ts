import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isEmptyQuery, parseQuery } from './parser.js';
import { toTsqueryText } from '../store/engines/sql.js';

const lookup = (name: string) => ({ talk: 1, help: 12 })[name];

test('words, OR, negation, phrases, prefixes and intitle: parse into AND-groups', () => {
  const q = parseQuery('alpha "big cat" OR -beta NOT gam* intitle:"x y"', lookup);
  assert.deepEqual(q.groups, [
    [
      { kind: 'word', text: 'alpha', prefix: false, negated: false, titleOnly: false },
      { kind: 'phrase', text: 'big cat', prefix: false, negated: false, titleOnly: false },
    ],
    [
      { kind: 'word', text: 'beta', prefix: false, negated: true, titleOnly: false },
      { kind: 'word', text: 'gam', prefix: true, negated: true, titleOnly: false },
      { kind: 'phrase', text: 'x y', prefix: false, negated: false, titleOnly: true },
    ],
  ]);
  assert.deepEqual(q.highlight, ['alpha', 'big cat', 'x y']);
  assert.equal(toTsqueryText(q, false), "('alpha' & 'big cat') | (!'beta' & !'gam':* & 'x y':A)");
});

test('namespace prefixes, all: and prefix:', () => {
  assert.deepEqual(parseQuery('Talk:foo', lookup).namespaces, [1]);
  assert.deepEqual(parseQuery('all:foo', lookup).namespaces, 'all');
  assert.equal(parseQuery('Nope:foo', lookup).namespaces, undefined);
  const p = parseQuery('foo prefix:Help:Some page', lookup);
  assert.equal(p.titlePrefix, 'Help:Some page');
  assert.deepEqual(
    p.groups.flat().map((l) => l.text),
    ['foo'],
  );
});

test('quotes and backslashes cannot break out of a tsquery operand; empty queries are empty', () => {
  const q = parseQuery("it's a\\b", lookup);
  // A backslash is outside MediaWiki's legalSearchChars: it separates words, as SearchUpdate does.
  assert.equal(toTsqueryText(q, true), "('it''s':A & 'a b':A)");
  assert.equal(isEmptyQuery(parseQuery('-alpha', lookup)), true);
  assert.equal(isEmptyQuery(parseQuery('"" *** OR', lookup)), true);
  assert.equal(isEmptyQuery(parseQuery('prefix:Foo', lookup)), false);
});
