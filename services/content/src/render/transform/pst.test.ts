/*
 * The pipe trick of the pre-save transform (Parser::pstPass2), on parserTests.txt's
 * "context links" cases.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pipeTrick, preSaveTransform } from './pst.js';

describe('pipe trick', () => {
  test('[[Page (context)|]] and [[ns:Page|]] get their label', () => {
    assert.equal(
      pipeTrick('[[Article (context)|]] [[:Bar:Article (context)|]] [[Bar:X (Y) Z|]]', 'Parser test'),
      '[[Article (context)|Article]] [[:Bar:Article (context)|Article]] [[Bar:X (Y) Z|X (Y) Z]]',
    );
    assert.equal(pipeTrick('[[Otherplace، Elsewhere|]]', 'Parser test'), '[[Otherplace، Elsewhere|Otherplace]]');
  });

  test('[[|Page]] without context is just [[Page]]', () => {
    assert.equal(pipeTrick('[[|Article]] [[|Article (context)]]', 'Parser test'), '[[Article]] [[Article (context)]]');
  });

  test('[[|Page]] takes the title’s context, with a colon prefix of the title’s text', () => {
    assert.equal(pipeTrick('[[|Article]]', 'Ns:Somearticle'), '[[Ns:Article|Article]]');
    assert.equal(pipeTrick('[[|Article]]', 'Ns:Somearticle (context)'), '[[Ns:Article (context)|Article]]');
    assert.equal(pipeTrick('[[|Article]]', 'Ns:Somearticle, Context (context)'), '[[Ns:Article (context)|Article]]');
    assert.equal(pipeTrick('[[|Article]]', 'Ns:Somearticle (IGNORED), Context'), '[[Ns:Article, Context|Article]]');
    assert.equal(pipeTrick('[[|Yes, you.]]', 'Who, me? (context)'), '[[Yes, you. (context)|Yes, you.]]');
  });

  test("a namespace page's context comes from its text without the namespace", async () => {
    const ctx = { title: 'Help:Somearticle (context)', titleText: 'Somearticle (context)', user: { name: 'A', anonymous: false }, now: new Date(0), expand: async (w: string) => w };
    assert.equal(await preSaveTransform('[[|Article]]', ctx), '[[Article (context)|Article]]');
  });
});
