/* The summaries MediaWiki writes itself, from its messages: the English defaults and a wiki's own. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MESSAGES, defaultMessages, fillMessage, type MessageText } from './interface-messages.js';
import { protectSummary } from './lifecycle/protect.js';

const levels = [
  { type: 'edit', level: 'sysop', expiry: 'infinity', cascade: false, source: '' },
  { type: 'move', level: 'sysop', expiry: '2030-01-01T00:00:00Z', cascade: false, source: '' },
];

test('protection summary: MediaWiki 1.39 English, as its null revision holds it', () => {
  assert.equal(
    protectSummary(defaultMessages, 'protect', 'X', 'Admin', 'protected', levels, true),
    'Protected "[[X]]": protected ([Edit=Allow only administrators] (indefinite) [Move=Allow only administrators] (expires 00:00, 1 January 2030 (UTC))) [cascading]',
  );
  assert.equal(protectSummary(defaultMessages, 'unprotect', 'X', 'Admin', '', [], false), 'Removed protection from "[[X]]"');
});

test('protection summary: a wiki that edits MediaWiki:Protectedarticle-comment and MediaWiki:Protect-level-sysop sees its text', () => {
  const own: Record<string, string> = { 'protectedarticle-comment': '$2 locked [[$1]]', 'protect-level-sysop': 'admins only' };
  const msg: MessageText = (key, ...params) => fillMessage(own[key] ?? DEFAULT_MESSAGES[key], params);
  assert.equal(protectSummary(msg, 'protect', 'X', 'Admin', '', levels.slice(0, 1), false), 'Admin locked [[X]] ([Edit=admins only] (indefinite))');
});

test('fillMessage: parameters, then GENDER (unknown gender) and PLURAL', () => {
  assert.equal(fillMessage('$1 {{GENDER:$2|moved}} page $3', ['A', 'A', '[[B]]']), 'A moved page [[B]]');
  assert.equal(fillMessage('{{GENDER:x|he|she|they}}', []), 'they');
  assert.equal(fillMessage('$1 {{PLURAL:$1|edit|edits}}', [1]), '1 edit');
  assert.equal(fillMessage('$1 {{PLURAL:$1|edit|edits}}', [3]), '3 edits');
});
