/*
 * Parsoid's JSON content model tables, both ways; expected HTML and text are what MediaWiki 1.39's
 * /coredev/v0/transform answers (data-parsoid attributes left out).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonFromParsoidHtml, jsonToParsoidBody } from './json.js';

describe('JSON content model (Parsoid Ext/JSON)', () => {
  test('objects, nested arrays and every primitive kind', () => {
    assert.equal(
      jsonToParsoidBody('{"a":[1,{"x":null}],"b":"s"}'),
      '<table class="mw-json mw-json-object"><tbody><tr><th>a</th><td><table class="mw-json mw-json-array"><tbody><tr><td class="value mw-json-number">1</td></tr>' +
        '<tr><td><table class="mw-json mw-json-object"><tbody><tr><th>x</th><td class="value mw-json-null">null</td></tr></tbody></table></td></tr></tbody></table></td></tr>' +
        '<tr><th>b</th><td class="value mw-json-string">s</td></tr></tbody></table>',
    );
  });

  test('a root array sits in a one-row array table; empty objects get the empty row; scalars a single-value table', () => {
    assert.equal(
      jsonToParsoidBody('[1,"a"]'),
      '<table class="mw-json mw-json-array"><tbody><tr><td><table class="mw-json mw-json-array"><tbody><tr><td class="value mw-json-number">1</td></tr><tr><td class="value mw-json-string">a</td></tr></tbody></table></td></tr></tbody></table>',
    );
    assert.equal(jsonToParsoidBody('{}'), '<table class="mw-json mw-json-object"><tbody><tr><td class="mw-json-empty"></td></tr></tbody></table>');
    assert.equal(jsonToParsoidBody('"x<y"'), '<table class="mw-json mw-json-single-value"><tbody><tr><td class="mw-json-string">x&lt;y</td></tr></tbody></table>');
  });

  test('keys keep the order of the text, integer-like ones too; values with colons stay values', () => {
    assert.equal(
      jsonToParsoidBody('{"b":1, "1" : ["a", ":"], "a\\"q":"x:"}'),
      '<table class="mw-json mw-json-object"><tbody><tr><th>b</th><td class="value mw-json-number">1</td></tr>' +
        '<tr><th>1</th><td><table class="mw-json mw-json-array"><tbody><tr><td class="value mw-json-string">a</td></tr><tr><td class="value mw-json-string">:</td></tr></tbody></table></td></tr>' +
        '<tr><th>a"q</th><td class="value mw-json-string">x:</td></tr></tbody></table>',
    );
  });

  test('text that is not JSON, or nested deeper than json_decode allows, is the bad-json error table', () => {
    const error = `<table typeof="mw:Error" data-mw='{"errors":[{"key":"bad-json"}]}'></table>`;
    assert.equal(jsonToParsoidBody('{bad'), error);
    assert.equal(jsonToParsoidBody('[[[[[[1]]]]]]'), error);
    assert.notEqual(jsonToParsoidBody('[[[[[1]]]]]'), error);
  });

  test('tables read back as PHP json_encode writes them', () => {
    const doc = (body: string) => `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;
    assert.equal(
      jsonFromParsoidHtml(
        doc('<table class="mw-json mw-json-object"><tbody><tr><th>a</th><td class="value mw-json-number">4</td></tr><tr><th>b</th><td class="value mw-json-number">3</td></tr></tbody></table>'),
      ),
      '{"a":4,"b":3}',
    );
    assert.equal(
      jsonFromParsoidHtml(
        doc(
          '<table class="mw-json mw-json-object"><tbody><tr><th>a</th><td class="value mw-json-number">4.5</td></tr><tr><th>b</th><td class="value mw-json-string">x/é</td></tr>' +
            '<tr><th>c</th><td><table class="mw-json mw-json-array"><tbody><tr><td class="value mw-json-boolean">true</td></tr></tbody></table></td></tr></tbody></table>',
        ),
      ),
      '{"a":4.5,"b":"x/é","c":[true]}',
    );
    // Keys keep their order (PHP arrays), and keys 0..n-1 make a list.
    assert.equal(
      jsonFromParsoidHtml(
        doc('<table class="mw-json mw-json-object"><tbody><tr><th>a</th><td class="value mw-json-number">4</td></tr><tr><th>1</th><td class="value mw-json-null">null</td></tr></tbody></table>'),
      ),
      '{"a":4,"1":null}',
    );
    assert.equal(jsonFromParsoidHtml(doc('<table class="mw-json mw-json-object"><tbody><tr><th>0</th><td class="value mw-json-string">z</td></tr></tbody></table>')), '["z"]');
    assert.equal(jsonFromParsoidHtml(doc(jsonToParsoidBody('[[1e3]]'))), '[[1000]]');
  });

  test('the round trip keeps the value', () => {
    const text = '{"name":"Quire","tags":["a","b"],"n":{"deep":[true,false,null,2.5]}}';
    assert.equal(jsonFromParsoidHtml(`<body>${jsonToParsoidBody(text)}</body>`), text);
  });

  test('HTML that is not a JSON table is refused', () => {
    assert.throws(() => jsonFromParsoidHtml('<p>x</p>'), TypeError);
    assert.throws(() => jsonFromParsoidHtml('<table class="other"></table>'), TypeError);
  });
});
