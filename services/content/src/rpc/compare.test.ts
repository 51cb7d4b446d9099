import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, ServiceError, startService, unary, GrpcStatus, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { CompareRelative, CompareRequest, DiffFormat, type DeepPartial, RevisionServiceClient } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { contentService } from '../server.js';
import { saveRevision } from '../store/save.js';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import { tableDiff } from '../diff/table.js';
import { formatInlineJsonDiff, inlineJsonDiff } from '../diff/inline-json.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));
const TEXTS = ['Intro\n== One ==\nfirst body', 'Intro\n== One ==\nfirst body, edited\n== Two ==\nmore', 'Intro changed\n== One ==\nfirst body, edited'];

for (const backend of testBackends()) {
  describe(`Compare RPC (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    let client: RevisionServiceClient;
    const compare = (req: DeepPartial<CompareRequest>) => unary(client, client.compare, CompareRequest.fromPartial(req));
    const failure = async (req: DeepPartial<CompareRequest>) => {
      try {
        await compare(req);
      } catch (e) {
        return ServiceError.fromGrpc(e);
      }
      assert.fail('the comparison should have failed');
    };
    /** Revision ids of "Diff page" (TEXTS in order) and of one revision of "Other page". */
    const revs: number[] = [];
    let otherRev = 0;
    let pageId = 0;

    before(async () => {
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0' });
      svc = await startService(contentService, te.env);
      client = makeClient(RevisionServiceClient, svc.address);
      let base = 0;
      for (const text of TEXTS) {
        const saved = await saveRevision(svc.runtime.db, codec, {
          ns: 0,
          dbkey: 'Diff_page',
          baseRevId: base,
          text,
          contentModel: 'wikitext',
          contentFormat: 'text/x-wiki',
          user: { id: 0, name: '192.0.2.7' },
          comment: `revision ${revs.length + 1}`,
          minor: false,
          tags: [],
        });
        revs.push(saved.revId);
        base = saved.revId;
        pageId = saved.pageId;
      }
      otherRev = (
        await saveRevision(svc.runtime.db, codec, {
          ns: 0,
          dbkey: 'Other_page',
          baseRevId: 0,
          text: 'other',
          contentModel: 'wikitext',
          contentFormat: 'text/x-wiki',
          user: { id: 0, name: '192.0.2.7' },
          comment: '',
          minor: false,
          tags: [],
        })
      ).revId;
    });
    after(async () => {
      client.close();
      await svc.stop();
      await te.cleanup();
    });

    test('two revisions: the table diff of their texts and the metadata of both sides', async () => {
      const res = await compare({ from: { revId: revs[0] }, to: { revId: revs[1] } });
      assert.equal(res.tableHtml, tableDiff(TEXTS[0]!, TEXTS[1]!));
      assert.match(res.tableHtml, /<ins class="diffchange diffchange-inline">, edited<\/ins>/);
      assert.equal(res.from?.revision?.id, revs[0]);
      assert.equal(res.from?.revision?.comment, 'revision 1');
      assert.equal(res.from?.revision?.content, undefined, 'metadata only');
      assert.equal(res.to?.page?.title, 'Diff page');
      assert.equal(res.to?.page?.id, pageId);
      assert.equal(res.inlineJson, '');
      assert.deepEqual(res.warnings, []);
    });

    test('titles and page ids name the latest revision; inline JSON with sections', async () => {
      const res = await compare({ from: { revId: revs[0] }, to: { title: 'diff_page' }, format: DiffFormat.DIFF_FORMAT_INLINE_JSON, withSections: true });
      assert.equal(res.to?.revision?.id, revs[2]);
      assert.equal(res.inlineJson, formatInlineJsonDiff(inlineJsonDiff(TEXTS[0]!, TEXTS[2]!)));
      assert.deepEqual(res.from?.sections, [{ level: 2, heading: '== One ==', offset: 6 }]);
      assert.deepEqual(res.to?.sections, [{ level: 2, heading: '== One ==', offset: 14 }]);
      const byId = await compare({ from: { pageId }, to: { revId: revs[1] } });
      assert.equal(byId.from?.revision?.id, revs[2]);
    });

    test('torelative prev, next and cur, with warnings where there is no such revision', async () => {
      const prev = await compare({ from: { revId: revs[1] }, toRelative: CompareRelative.COMPARE_RELATIVE_PREV, withRelatives: true });
      assert.deepEqual([prev.from?.revision?.id, prev.to?.revision?.id], [revs[0], revs[1]]);
      assert.equal(prev.tableHtml, tableDiff(TEXTS[0]!, TEXTS[1]!));
      assert.equal(prev.from?.prevRevId, 0, 'the first revision has no previous one');
      assert.equal(prev.to?.nextRevId, revs[2]);

      const first = await compare({ from: { revId: revs[0] }, toRelative: CompareRelative.COMPARE_RELATIVE_PREV });
      assert.equal(first.from?.revision, undefined);
      assert.equal(first.tableHtml, tableDiff('', TEXTS[0]!));
      assert.deepEqual(first.warnings, [{ code: 'compare-no-prev', text: `Revision ${revs[0]} is the earliest revision of Diff page, there is no revision for "torelative=prev" to compare to.` }]);

      const next = await compare({ from: { revId: revs[0] }, toRelative: CompareRelative.COMPARE_RELATIVE_NEXT });
      assert.equal(next.to?.revision?.id, revs[1]);
      const last = await compare({ from: { revId: revs[2] }, toRelative: CompareRelative.COMPARE_RELATIVE_NEXT });
      assert.equal(last.to?.revision, undefined);
      assert.equal(last.tableHtml, '', 'no next revision: compared with itself');
      assert.equal(last.warnings[0]?.code, 'compare-no-next');

      const cur = await compare({ from: { revId: revs[0] }, toRelative: CompareRelative.COMPARE_RELATIVE_CUR });
      assert.equal(cur.to?.revision?.id, revs[2]);

      const err = await failure({ from: { text: 'x', contentModel: 'wikitext' }, toRelative: CompareRelative.COMPARE_RELATIVE_PREV });
      assert.equal(err.mwCode, 'compare-relative-to-nothing');
    });

    test('supplied text: diffed as given; without any model to go by, wikitext with a warning', async () => {
      const onPage = await compare({ from: { revId: revs[2], text: 'Intro changed\nnew line' }, to: { revId: revs[2] } });
      assert.equal(onPage.tableHtml, tableDiff('Intro changed\nnew line', TEXTS[2]!));
      assert.equal(onPage.from?.revision, undefined, 'supplied text has no metadata');
      assert.deepEqual(onPage.warnings, []);
      const bare = await compare({ from: { text: 'a' }, to: { text: 'b' } });
      assert.equal(bare.tableHtml, tableDiff('a', 'b'));
      assert.deepEqual(
        bare.warnings.map((w) => w.code),
        ['compare-nocontentmodel'],
      );
    });

    test("MediaWiki's errors: nosuchrevid, missingtitle, nosuchpageid, invalidtitle", async () => {
      const noRev = await failure({ from: { revId: revs[0] }, to: { revId: 999999 } });
      assert.deepEqual([noRev.mwCode, noRev.message, noRev.data.side], ['nosuchrevid', 'There is no revision with ID 999999.', 'to']);
      assert.equal(noRev.grpcCode, GrpcStatus.NOT_FOUND);
      const noTitle = await failure({ from: { title: 'No such page' }, to: { revId: revs[0] } });
      assert.deepEqual([noTitle.mwCode, noTitle.message], ['missingtitle', "The page No such page doesn't exist."]);
      const noPage = await failure({ from: { pageId: 424242 }, to: { revId: revs[0] } });
      assert.deepEqual([noPage.mwCode, noPage.message], ['nosuchpageid', 'There is no page with ID 424242.']);
      const bad = await failure({ from: { title: 'a|b' }, to: { revId: revs[0] } });
      assert.equal(bad.mwCode, 'invalidtitle');
      // Revisions of different pages compare fine here; the REST route refuses them itself.
      const cross = await compare({ from: { revId: revs[0] }, to: { revId: otherRev } });
      assert.notEqual(cross.from?.revision?.pageId, cross.to?.revision?.pageId);
    });

    test('text hidden by revision deletion needs the deletedtext right', async () => {
      await svc.runtime.db.query(`UPDATE ${svc.runtime.db.schema}.revision SET rev_deleted = 1 WHERE rev_id = $1`, [revs[0]]);
      try {
        const err = await failure({ from: { revId: revs[0] }, to: { revId: revs[1] } });
        assert.deepEqual([err.mwCode, err.message, err.data.side], ['missingcontent', `Missing content for revision ID ${revs[0]}.`, 'from']);
        const allowed = await compare({ from: { revId: revs[0] }, to: { revId: revs[1] }, canViewDeleted: true });
        assert.equal(allowed.tableHtml, tableDiff(TEXTS[0]!, TEXTS[1]!));
        assert.equal(allowed.from?.revision?.deleted, 1);
      } finally {
        await svc.runtime.db.query(`UPDATE ${svc.runtime.db.schema}.revision SET rev_deleted = 0 WHERE rev_id = $1`, [revs[0]]);
      }
    });
  });
}
