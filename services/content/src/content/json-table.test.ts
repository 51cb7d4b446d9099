import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonTable } from './json-table.js';

// Expected HTML is MediaWiki 1.39.17's (action=parse&contentmodel=json).
test('JsonContent::rootValueTable: objects, boxed arrays, empty ones, scalars, escaping', () => {
  assert.equal(jsonTable('{}'), '<table class="mw-json"><tbody><tr><td class="mw-json-empty">Empty object</td></tr></tbody></table>');
  assert.equal(jsonTable('[]'), '<table class="mw-json"><tbody><tr><td><table class="mw-json"><tbody><tr><td class="mw-json-empty">Empty array</td></tr></tbody></table></td></tr></tbody></table>');
  assert.equal(
    jsonTable('[1,[2,{}],null,true,1.5,"a&b<\\"c\\n"]'),
    '<table class="mw-json"><tbody><tr><td><table class="mw-json"><tbody><tr><td class="mw-json-value">1</td></tr>\n<tr><td><table class="mw-json"><tbody><tr><td class="mw-json-value">2</td></tr>\n' +
      '<tr><td><table class="mw-json"><tbody><tr><td class="mw-json-empty">Empty object</td></tr></tbody></table></td></tr></tbody></table></td></tr>\n<tr><td class="mw-json-value">null</td></tr>\n' +
      '<tr><td class="mw-json-value">true</td></tr>\n<tr><td class="mw-json-value">1.5</td></tr>\n<tr><td class="mw-json-value">"a&amp;b&lt;"c\n"</td></tr></tbody></table></td></tr></tbody></table>',
  );
  assert.equal(jsonTable('"str"'), '<table class="mw-json mw-json-single-value"><tbody><tr><td>"str"</td></tr></tbody></table>');
  assert.equal(jsonTable('12345678901234567890'), '<table class="mw-json mw-json-single-value"><tbody><tr><td>1.2345678901234567e+19</td></tr></tbody></table>');
  assert.equal(jsonTable('{bad'), undefined);
});
