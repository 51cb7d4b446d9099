/* The pipeline's message() over MediaWiki's English messages (gateway/src/i18n). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { message, stripMarkup } from './errors.js';

test("a key the pipeline has no text of comes from MediaWiki's en.json", () => {
  const m = message('invalidtitle', 'apierror-invalidtitle', ['X']);
  assert.equal(m.text, 'Bad title "X".');
  assert.equal(message('x', 'no-such-message-key').text, 'no-such-message-key', 'an unknown key stays the key');
});

test('{{PLURAL}} with one or two forms', () => {
  assert.equal(message('invalidparammix', 'apierror-invalidparammix', ['<var>a</var> and <var>b</var>', 2]).text, 'The parameters "a" and "b" can not be used together.');
  assert.equal(message('x', 'apierror-unrecognizedparams', ['foo', 1]).text, 'Unrecognized parameter: foo.');
  assert.equal(message('x', 'apierror-unrecognizedparams', ['foo, bar', 2]).text, 'Unrecognized parameters: foo, bar.');
});

test('plain text turns line breaks and tabs into spaces (Sanitizer::stripAllTags), wikitext keeps them', () => {
  const m = message('bad_wlowner', 'nosuchusershort', ['Nobody']);
  assert.equal(m.text, 'There is no user by the name "Nobody". Check your spelling.');
  assert.equal(m.wikitext, 'There is no user by the name "Nobody".\nCheck your spelling.');
  assert.equal(stripMarkup('a\r\nb\tc&#10;d'), 'a b c d');
});
