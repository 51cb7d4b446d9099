/*
 * Maxlag counts a search indexer that is behind (ApiMain::getMaxLag with the lag an
 * ApiMaxLagInfo hook adds), with `type` saying which.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, type TestWiki } from './harness.js';

type Json = Record<string, any>;

describe('maxlag counts the search indexer', () => {
  let wiki: TestWiki;
  before(async () => {
    // Query role only: no indexer runs, so every change waits in the feed (an indexer far behind).
    wiki = await startWiki('embedded', { SEARCH_ROLE: 'query' });
  });
  after(() => wiki?.close());

  test('maxlag=0 on a lagging indexer answers maxlag with type search-indexer; a larger maxlag passes', async () => {
    const edit = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: '+\\', title: 'Unindexed', text: 'waiting' })).json<Json>();
    assert.equal(edit.edit?.result, 'Success', JSON.stringify(edit));
    let r = await wiki.api({ action: 'query', meta: 'siteinfo', format: 'json', maxlag: '0' });
    // The lag counts in whole seconds: wait for the oldest unindexed change to be one second old.
    for (let i = 0; i < 40 && r.json<Json>().error === undefined; i++) {
      await new Promise((res) => setTimeout(res, 100));
      r = await wiki.api({ action: 'query', meta: 'siteinfo', format: 'json', maxlag: '0' });
    }
    const err = r.json<Json>().error;
    assert.equal(err?.code, 'maxlag', r.text);
    assert.equal(err.type, 'search-indexer');
    assert.ok(Number.isInteger(err.lag) && err.lag >= 1, `lag ${err.lag}`);
    assert.equal(r.headers.get('mediawiki-api-error'), 'maxlag');
    assert.equal(r.headers.get('retry-after'), '5');
    assert.equal(r.headers.get('x-database-lag'), String(err.lag));
    const fine = await wiki.api({ action: 'query', meta: 'siteinfo', format: 'json', maxlag: '3600' });
    assert.equal(fine.json<Json>().error, undefined);
  });
});
