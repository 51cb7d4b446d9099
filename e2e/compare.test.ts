/*
 * Diffs through every layer: action=compare's HTML table and REST
 * /v1/revision/{from}/compare/{to}'s inline JSON on revisions made with anonymous edits,
 * checked against the golden samples of MediaWiki 1.39 + wikidiff2 1.13.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GOLDEN_FROM_TEXT, GOLDEN_TO_TEXT } from '@quire/content/diff/golden-sample';
import { readGolden, startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';

for (const backend of testBackends()) {
  describe(`compare on ${backend}`, () => {
    let wiki: TestWiki;
    /** Revisions of "Anchor sample page": the golden samples' texts. */
    let fromRev = 0;
    let toRev = 0;
    let pageId = 0;
    let otherRev = 0;

    const edit = async (title: string, text: string, summary = '') => {
      const r = await wiki.post('/w/api.php', { action: 'edit', title, text, summary, token: ANON_TOKEN, format: 'json' });
      const j = r.json<{ edit?: { newrevid: number; pageid: number } }>();
      assert.ok(j.edit, r.text);
      return j.edit;
    };

    before(async () => {
      wiki = await startWiki(backend);
      const first = await edit('Anchor sample page', GOLDEN_FROM_TEXT, 'first <b>version</b>');
      const second = await edit('Anchor sample page', GOLDEN_TO_TEXT, 'second');
      [fromRev, toRev, pageId] = [first.newrevid, second.newrevid, second.pageid];
      otherRev = (await edit('Another page', 'other text')).newrevid;
    });
    after(() => wiki?.close());

    test('action=compare matches the golden sample: keys, body', async () => {
      const golden = JSON.parse((await readGolden('action_compare.http')).body) as { compare: Record<string, unknown> };
      const r = await wiki.api({ action: 'compare', fromrev: String(fromRev), torev: String(toRev) });
      assert.equal(r.status, 200);
      const j = r.json<{ compare: Record<string, unknown> }>();
      assert.deepEqual(Object.keys(j.compare), Object.keys(golden.compare));
      assert.deepEqual(j.compare, {
        ...golden.compare,
        fromid: pageId,
        fromrevid: fromRev,
        toid: pageId,
        torevid: toRev,
      });
    });

    test('REST compare matches the golden sample byte for byte (revision ids aside)', async () => {
      const golden = await readGolden('rest_revision_compare.http');
      const r = await wiki.rest(`/v1/revision/${fromRev}/compare/${toRev}`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/json');
      const expected = golden.body.replace('"from":{"id":2,', `"from":{"id":${fromRev},`).replace('"to":{"id":3,', `"to":{"id":${toRev},`);
      assert.equal(r.text, expected);
    });

    test('every prop, in formatversion 1 and 2; torelative and rel', async () => {
      const all = 'diff|diffsize|rel|ids|title|user|comment|parsedcomment|size|timestamp';
      const j = (await wiki.api({ action: 'compare', fromrev: String(toRev), torelative: 'prev', prop: all, formatversion: '2' })).json<{ compare: Record<string, unknown> }>();
      const c = j.compare;
      assert.deepEqual(Object.keys(c), [
        'fromid',
        'fromrevid',
        'fromns',
        'fromtitle',
        'fromsize',
        'fromtimestamp',
        'fromuser',
        'fromuserid',
        'fromcomment',
        'fromparsedcomment',
        'toid',
        'torevid',
        'tons',
        'totitle',
        'tosize',
        'totimestamp',
        'touser',
        'touserid',
        'tocomment',
        'toparsedcomment',
        'diffsize',
        'body',
      ]);
      assert.equal(c.fromrevid, fromRev);
      assert.equal(c.torevid, toRev);
      assert.equal(c.fromtitle, 'Anchor sample page');
      assert.equal(c.fromuser, '127.0.0.1');
      assert.equal(c.fromuserid, 0);
      assert.equal(c.fromcomment, 'first <b>version</b>');
      assert.equal(c.fromparsedcomment, 'first &lt;b&gt;version&lt;/b&gt;');
      assert.equal(c.fromsize, Buffer.byteLength(GOLDEN_FROM_TEXT));
      assert.match(String(c.fromtimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(c.diffsize, Buffer.byteLength(String(c.body)));

      const rel = (await wiki.api({ action: 'compare', fromrev: String(fromRev), torelative: 'next', prop: 'rel|ids' })).json<{ compare: Record<string, unknown> }>();
      assert.deepEqual(rel.compare, { fromid: pageId, fromrevid: fromRev, toid: pageId, torevid: toRev });
      const cur = (await wiki.api({ action: 'compare', fromtitle: 'Anchor sample page', torelative: 'prev', prop: 'rel|ids' })).json<{ compare: Record<string, unknown> }>();
      assert.equal(cur.compare.torevid, toRev);

      const first = (await wiki.api({ action: 'compare', fromrev: String(fromRev), torelative: 'prev', prop: 'ids' })).json<Record<string, Record<string, unknown>>>();
      assert.deepEqual(first.compare, { toid: pageId, torevid: fromRev });
      assert.deepEqual(first.warnings?.compare, {
        '*': `Revision ${fromRev} is the earliest revision of Anchor sample page, there is no revision for "torelative=prev" to compare to.`,
      });
    });

    test('supplied text: fromslots=main with fromtext-main, and the deprecated fromtext', async () => {
      const r = await wiki.api({ action: 'compare', fromslots: 'main', 'fromtext-main': 'a\nb', totext: 'a\nc', tocontentmodel: 'wikitext', formatversion: '2' });
      const j = r.json<{ compare: { body: string }; warnings: Record<string, unknown> }>();
      // Lines too different to be a change are an addition and a deletion.
      assert.match(
        j.compare.body,
        /<td class="diff-addedline diff-side-added"><div>c<\/div><\/td>\n<\/tr>\n<tr>\n {2}<td class="diff-marker" data-marker="−"><\/td>\n {2}<td class="diff-deletedline diff-side-deleted"><div>b<\/div><\/td>/,
      );
      assert.ok(!('fromrevid' in j.compare));
      assert.ok(j.warnings, 'totext and tocontentmodel are deprecated');
    });

    test("difftype=inline: wikidiff2's inline lines in one row; an unknown difftype is refused", async () => {
      const form = { action: 'compare', fromslots: 'main', 'fromtext-main': 'x\ntwo <b>', toslots: 'main', 'totext-main': 'x\ntwo <i>', formatversion: '2' };
      const r = (await wiki.api({ ...form, difftype: 'inline' })).json<{ compare: { body: string } }>();
      assert.equal(
        r.compare.body,
        '<tr><td colspan="4"><div class="mw-diff-inline-header"><!-- LINES 1,1 --></div>\n<div class="mw-diff-inline-context">x</div>\n<div class="mw-diff-inline-changed">two &lt;<del>b</del><ins>i</ins>&gt;</div>\n</td></tr>',
      );
      const table = (await wiki.api({ ...form, difftype: 'table' })).json<{ compare: { body: string } }>();
      assert.match(table.compare.body, /^<tr>\n {2}<td colspan="2" class="diff-lineno">Line 1:<\/td>/);
      assert.equal((await wiki.api({ ...form, difftype: 'unified' })).json<{ error: { code: string } }>().error.code, 'badvalue');
    });

    test("action=compare errors are MediaWiki's", async () => {
      const error = async (params: Record<string, string>) => (await wiki.api({ action: 'compare', ...params })).json<{ error: { code: string; info: string } }>().error;
      const missing = await error({ torev: String(toRev) });
      assert.deepEqual([missing.code, missing.info], ['missingparam', 'At least one of the parameters "fromtitle", "fromid", "fromrev", "fromtext" and "fromslots" is required.']);
      assert.equal((await error({ fromrev: String(toRev) })).info, 'At least one of the parameters "totitle", "toid", "torev", "totext", "torelative" and "toslots" is required.');
      const noRev = await error({ fromrev: '999999', torev: String(toRev) });
      assert.deepEqual([noRev.code, noRev.info], ['nosuchrevid', 'There is no revision with ID 999999.']);
      const noTitle = await error({ fromtitle: 'Nope zz', torev: String(toRev) });
      assert.deepEqual([noTitle.code, noTitle.info], ['missingtitle', "The page Nope zz doesn't exist."]);
      const noId = await error({ fromid: '99999', torev: String(toRev) });
      assert.deepEqual([noId.code, noId.info], ['nosuchpageid', 'There is no page with ID 99999.']);
      assert.equal((await error({ fromtitle: 'a|b', torev: String(toRev) })).code, 'invalidtitle');
      const mix = await error({ fromtext: 'a', fromslots: 'main', torev: String(toRev) });
      assert.deepEqual([mix.code, mix.info], ['invalidparammix', 'The parameters "fromslots" and "fromtext" can not be used together.']);
      const main = await error({ fromslots: 'main', torev: String(toRev) });
      assert.deepEqual([main.code, main.info], ['compare-maintextrequired', 'Parameter "fromtext-main" is required when "fromslots" contains "main" (cannot delete the main slot).']);
      const rel = await error({ fromtext: 'x', torelative: 'prev' });
      assert.deepEqual([rel.code, rel.info], ['compare-relative-to-nothing', 'No \'from\' revision for "torelative" to be relative to.']);
    });

    test('REST compare: 404 for a missing revision, 400 for revisions of different pages', async () => {
      const status = async (path: string) => {
        const r = await wiki.rest(path);
        return { status: r.status, body: r.json<Record<string, unknown>>() };
      };
      const missingFrom = await status(`/v1/revision/999999/compare/${toRev}`);
      assert.equal(missingFrom.status, 404);
      assert.deepEqual(missingFrom.body, { messageTranslations: { en: 'The revision specified by the from parameter does not exist.' }, httpCode: 404, httpReason: 'Not Found' });
      const missingTo = await status(`/v1/revision/${fromRev}/compare/999999`);
      assert.deepEqual(missingTo.body.messageTranslations, { en: 'The revision specified by the to parameter does not exist.' });
      const mismatch = await status(`/v1/revision/${fromRev}/compare/${otherRev}`);
      assert.equal(mismatch.status, 400);
      assert.deepEqual(mismatch.body, {
        messageTranslations: { en: 'The specified revisions belong to different pages; refusing to compare them.' },
        httpCode: 400,
        httpReason: 'Bad Request',
      });
      const bad = await status(`/v1/revision/abc/compare/${toRev}`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.failureCode, 'badinteger');
    });
  });
}
