/*
 * Content negotiation of the transforms, case by case as MediaWiki 1.39 (ParsoidHandler::acceptable)
 * answers them: the version written, or undefined for a 406.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptableVersion, parseAccept, resolveContentVersion } from './transformAccept.js';

const profile = (spec: string, version: string) => `profile="https://www.mediawiki.org/wiki/Specs/${spec}/${version}"`;

describe('transform content negotiation', () => {
  test('no Accept, wildcards and text/html without a profile get the default version', () => {
    for (const accept of [undefined, '', '*/*', 'text/*', 'text/html', 'application/json, */*;q=0.1', 'garbage']) {
      assert.equal(acceptableVersion('html', accept), '2.6.0', String(accept));
    }
  });

  test('profiles resolve with caret semantics; versions before 1.6.0 and other specs are not acceptable', () => {
    assert.equal(acceptableVersion('html', `text/html; ${profile('HTML', '2.4.0')}`), '2.6.0');
    assert.equal(acceptableVersion('html', `text/html; ${profile('HTML', '2.0.0')}`), '2.6.0');
    assert.equal(acceptableVersion('html', `text/html; ${profile('HTML', '999.0.0')}`), '999.0.0');
    assert.equal(acceptableVersion('html', `text/html; ${profile('HTML', '0.0.0')}`), undefined);
    assert.equal(acceptableVersion('html', `text/html; ${profile('HTML', '3.0.0')}`), undefined);
    assert.equal(acceptableVersion('html', 'text/html; profile="something different"'), undefined);
    assert.equal(acceptableVersion('html', `text/html; ${profile('pagebundle', '2.6.0')}`), undefined);
    assert.equal(acceptableVersion('html', 'application/json'), undefined);
  });

  test('the highest q-value wins, then the first listed; an unusable range falls through to the next', () => {
    assert.equal(acceptableVersion('html', `text/html; ${profile('HTML', '2.4.0')}; q=0.5, text/html; ${profile('HTML', '999.0.0')}; q=0.8`), '999.0.0');
    assert.equal(acceptableVersion('html', `text/html; ${profile('HTML', '2.4.0')}, text/html; ${profile('HTML', '999.0.0')}`), '2.6.0');
    assert.equal(acceptableVersion('html', `text/html; ${profile('HTML', '0.0.1')}, text/html; ${profile('HTML', '999.0.0')};q=0.2`), '999.0.0');
  });

  test('wikitext is always acceptable; lint only through */*', () => {
    assert.equal(acceptableVersion('wikitext', 'image/png'), '2.6.0');
    assert.equal(acceptableVersion('lint', 'application/json'), undefined);
    assert.equal(acceptableVersion('lint', '*/*'), '2.6.0');
    assert.equal(acceptableVersion('lint', 'text/*'), undefined);
  });

  test('HttpAcceptParser: parameters unquoted, q as a float, sorted stably', () => {
    assert.deepEqual(parseAccept('a/b;q=0.2, c/d; x="y"; Q=0.9, e/f'), [
      { type: 'e', subtype: 'f', q: 1, params: {}, index: 2 },
      { type: 'c', subtype: 'd', q: 0.9, params: { x: 'y' }, index: 1 },
      { type: 'a', subtype: 'b', q: 0.2, params: {}, index: 0 },
    ]);
    assert.equal(resolveContentVersion('1.5.9'), undefined);
    assert.equal(resolveContentVersion('2.6.1'), undefined);
    assert.equal(resolveContentVersion('999.0.0'), '999.0.0');
  });
});
