/*
 * Requests as real clients send them, answered as MediaWiki answers: an unknown generator is
 * `badgenerator` (ApiPageSet), a module that is no generator too, and PHP array syntax on
 * `action` is warned about.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, type TestWiki } from './harness.js';

describe('request quirks', () => {
  let wiki: TestWiki;
  before(async () => {
    wiki = await startWiki('embedded');
  });
  after(async () => wiki?.close());

  test('generator=nosuchgen is badgenerator; a module that is no generator too', async () => {
    const unknown = (await wiki.api({ action: 'query', generator: 'nosuchgen' })).json();
    assert.equal(unknown.error.code, 'badgenerator');
    assert.equal(unknown.error.info, 'Unknown "generator=nosuchgen".');
    const notGenerator = (await wiki.api({ action: 'query', generator: 'info', titles: 'Main Page' })).json();
    assert.equal(notGenerator.error.code, 'badgenerator');
    assert.equal(notGenerator.error.info, 'Module "info" cannot be used as a generator.');
    const fine = (await wiki.api({ action: 'query', generator: 'allpages', gaplimit: '1', formatversion: '2' })).json();
    assert.equal(fine.error, undefined);
  });

  test('action[]=query: the help page, with the unsupported-array warning above it as MediaWiki writes it', async () => {
    const r = await wiki.get('/w/api.php?action[]=query&format=json');
    assert.equal(r.status, 200);
    assert.ok(
      r.text.startsWith(
        '<!-- API warnings and errors:\n{\n    "warnings": {\n        "main": {\n            "warnings": "Parameter \\"action\\" uses unsupported PHP array syntax."\n        }\n    }\n}\n-->\n<!DOCTYPE html>',
      ),
      r.text.slice(0, 300),
    );
  });

  test("a multipart body as Python's email package writes it (pywikibot) is read as PHP reads it", async () => {
    const b = '===============8140555481445819803==';
    const part = (name: string, value: string) => `--${b}\nContent-Type: text/plain; charset="utf-8"\nMIME-Version: 1.0\nContent-disposition: form-data; name="${name}"\n\n${value}\n`;
    const body = `${part('action', 'parse')}${part('format', 'json')}${part('contentmodel', 'wikitext')}${part('text', "''two''\nlines")}--${b}--\n`;
    const r = await fetch(`${wiki.baseUrl}/w/api.php`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary="${b}"` }, body });
    const json = (await r.json()) as { parse?: { text: { '*': string } } };
    assert.ok(json.parse, JSON.stringify(json).slice(0, 300));
    assert.match(json.parse.text['*'], /<i>two<\/i>\nlines/);
  });
});
