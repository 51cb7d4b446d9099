import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { SKIN_SCRIPT, SKIN_SCRIPT_PATH } from './skin-script.js';

test('the skin script compiles as a browser script and is addressed by its content', () => {
  assert.doesNotThrow(() => new vm.Script(SKIN_SCRIPT, { filename: 'quire.js' }));
  assert.match(SKIN_SCRIPT_PATH, /^\/w\/skins\/quire\.js\?v=[0-9a-f]{12}$/);
});

test('the skin script does nothing on a page without the search form', () => {
  // No search form (data-api): the script returns before touching anything else.
  const touched: string[] = [];
  const document = new Proxy({ getElementById: () => null }, { get: (t, k) => (k === 'getElementById' ? t.getElementById : (touched.push(String(k)), undefined)) });
  vm.runInNewContext(SKIN_SCRIPT, { document });
  assert.deepEqual(touched, []);
});
