import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeClient, ServiceError, startService, unary, GrpcStatus, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { GetRevisionsRequest, RevisionServiceClient } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { PageServiceClient, type ResolvePagesRequest } from '@quire/proto/wiki/content/pages/v1/pages';
import { SiteServiceClient } from '@quire/proto/wiki/content/site/v1/site';
import { contentService } from './server.js';
import { saveRevision, type SaveRevisionInput } from './store/save.js';
import { TitleCodec } from './title/codec.js';
import { NamespaceTable } from './title/namespaces.js';
import { MAIN_PAGE_TEXT } from './content/main-page.js';
import { sha1Base36 } from './content/sha1.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const codec = new TitleCodec(new NamespaceTable('Quire'));

/** The content service's gRPC services these tests call, all on its one address. */
interface Stubs {
  site: SiteServiceClient;
  pages: PageServiceClient;
  revisions: RevisionServiceClient;
}
const connect = (address: string): Stubs => ({
  site: makeClient(SiteServiceClient, address),
  pages: makeClient(PageServiceClient, address),
  revisions: makeClient(RevisionServiceClient, address),
});
const closeStubs = (s: Stubs) => {
  for (const c of Object.values(s)) c.close();
};

function edit(dbkey: string, baseRevId: number, text: string, extra: Partial<SaveRevisionInput> = {}): SaveRevisionInput {
  return {
    ns: 0,
    dbkey,
    baseRevId,
    text,
    contentModel: 'wikitext',
    contentFormat: 'text/x-wiki',
    user: { id: 0, name: '192.0.2.1' },
    comment: `edit of ${dbkey}`,
    minor: false,
    tags: [],
    ...extra,
  };
}

for (const backend of testBackends()) {
  describe(`content service (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    let client: Stubs;
    const call = {
      listNamespaces: () => unary(client.site, client.site.listNamespaces, {}),
      getStatistics: () => unary(client.site, client.site.getStatistics, {}),
      resolvePages: (r: Partial<ResolvePagesRequest>) => unary(client.pages, client.pages.resolvePages, { titles: [], pageIds: [], revIds: [], resolveRedirects: false, ...r }),
      getPage: (title: string, withContent = false) => unary(client.pages, client.pages.getPage, { title, withContent }),
      getRevisions: (r: Partial<GetRevisionsRequest>) => unary(client.revisions, client.revisions.getRevisions, GetRevisionsRequest.fromPartial(r)),
      getReplicationLag: () => unary(client.site, client.site.getReplicationLag, {}),
    };
    const save = (input: SaveRevisionInput) => saveRevision(svc.runtime.db, codec, input);

    before(async () => {
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0' });
      svc = await startService(contentService, te.env);
      client = connect(svc.address);
    });
    after(async () => {
      closeStubs(client);
      await svc.stop();
      await te.cleanup();
    });

    test('lists MediaWiki default namespaces, the project one named after the wiki', async () => {
      const { namespaces, aliases } = await call.listNamespaces();
      assert.deepEqual(
        namespaces.map((n) => n.id),
        [-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      );
      const project = namespaces.find((n) => n.id === 4)!;
      assert.equal(project.name, 'Quire');
      assert.equal(project.canonical, 'Project');
      assert.equal(namespaces.find((n) => n.id === 5)!.name, 'Quire talk');
      assert.deepEqual(
        namespaces.filter((n) => n.content).map((n) => n.id),
        [0],
      );
      assert.deepEqual(
        namespaces.filter((n) => !n.subpages).map((n) => n.id),
        [-2, -1, 0, 6, 14],
      );
      assert.equal(namespaces.find((n) => n.id === 8)!.protection, 'editinterface');
      assert.ok(namespaces.every((n) => n.case === 'first-letter'));
      assert.deepEqual(aliases, [
        { id: 6, alias: 'Image' },
        { id: 7, alias: 'Image talk' },
      ]);
    });

    test('the first start created the Main Page as MediaWiki does', async () => {
      const { page, latest } = await call.getPage('Main_Page', true);
      assert.equal(page!.id, 1);
      assert.equal(page!.title, 'Main Page');
      assert.equal(page!.dbkey, 'Main_Page');
      assert.equal(page!.isNew, true);
      assert.equal(page!.contentModel, 'wikitext');
      assert.equal(page!.pageLanguage, 'en');
      assert.equal(page!.latestRevId, 1);
      assert.equal(page!.length, Buffer.byteLength(MAIN_PAGE_TEXT));
      assert.equal(latest!.id, 1);
      assert.equal(latest!.parentId, 0);
      assert.equal(latest!.content, MAIN_PAGE_TEXT);
      assert.equal(latest!.sha1, sha1Base36(MAIN_PAGE_TEXT));
      assert.equal(latest!.userText, 'MediaWiki default');
      assert.equal(latest!.userId, 1);
      assert.equal(latest!.comment, '');
      assert.equal(latest!.contentFormat, 'text/x-wiki');
      assert.equal(latest!.parentSize, -1);
      assert.match(latest!.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.ok(Math.abs(Date.parse(latest!.timestamp) - Date.now()) < 120_000);
      // Without content asked for, none is sent.
      assert.equal((await call.getPage('Main Page')).latest!.content, undefined);
    });

    test('a restart on the same data keeps the Main Page and does not create it again', async () => {
      closeStubs(client);
      await svc.stop();
      svc = await startService(contentService, te.env);
      client = connect(svc.address);
      const stats = await call.getStatistics();
      assert.equal(stats.pages, 1);
      assert.equal(stats.edits, 1);
      const { revisions } = await call.getRevisions({ pageIds: [1], limit: 50 });
      assert.deepEqual(
        revisions.map((r) => r.id),
        [1],
      );
    });

    test('statistics count pages, edits and link-bearing articles', async () => {
      const before = await call.getStatistics();
      assert.equal(before.articles, 0); // the Main Page has external links only
      const created = await save(edit('Stats_article', 0, 'Links to [[Main Page]].'));
      await save(edit('Stats_stub', 0, 'No links here.'));
      let stats = await call.getStatistics();
      assert.deepEqual(stats, { pages: before.pages + 2, articles: 1, edits: before.edits + 2, images: 0, jobs: 0 });
      // Removing the link (or making it a redirect) stops counting it.
      await save(edit('Stats_article', created.revId, '#REDIRECT [[Main Page]]'));
      stats = await call.getStatistics();
      assert.equal(stats.articles, 0);
      assert.equal(stats.edits, before.edits + 3);
    });

    test('ResolvePages: normalized, missing, invalid, special and existing titles in request order', async () => {
      const r = await call.resolvePages({ titles: ['Main_Page', 'no such page', 'a[b', 'Special:foo', 'Main Page', 'Main_Page', '#frag'] });
      assert.deepEqual(r.normalized, [
        { from: 'Main_Page', to: 'Main Page' },
        { from: 'no such page', to: 'No such page' },
        { from: 'Special:foo', to: 'Special:Foo' },
        { from: '#frag', to: '' },
      ]);
      assert.deepEqual(r.invalid, [{ title: 'a[b', reasonCode: 'title-invalid-characters', reason: 'The requested page title contains invalid characters: "[".' }]);
      assert.deepEqual(
        r.pages.map((p) => [p.title, p.id, p.missing, p.special]),
        [
          ['Main Page', 1, false, false],
          ['No such page', 0, true, false],
          ['Special:Foo', 0, true, true],
        ],
      );
      assert.equal(r.pages[0]!.latestRevId, 1);
    });

    test('ResolvePages: page ids and revision ids', async () => {
      const r = await call.resolvePages({ pageIds: [1, 987654, 1], revIds: [1, 123456789] });
      assert.deepEqual(r.missingPageIds, [987654]);
      assert.deepEqual(r.badRevIds, [123456789]);
      assert.deepEqual(r.revisionPages, [{ revId: 1, pageId: 1 }]);
      assert.deepEqual(
        r.pages.map((p) => p.id),
        [1],
      );
    });

    test('ResolvePages follows redirects when asked, chains included', async () => {
      await save(edit('Redirect_target', 0, 'Target text'));
      await save(edit('Redirect_one', 0, '#REDIRECT [[redirect target#Part two]]'));
      await save(edit('Redirect_two', 0, '#REDIRECT [[Redirect one]]'));
      await save(edit('Redirect_to_nowhere', 0, '#REDIRECT [[Nowhere at all]]'));

      const plain = await call.resolvePages({ titles: ['Redirect one'] });
      assert.equal(plain.pages[0]!.redirect, true);
      assert.equal(plain.pages[0]!.redirectTarget, 'Redirect target');
      assert.deepEqual(plain.redirects, []);

      const r = await call.resolvePages({ titles: ['Redirect two', 'Redirect to nowhere', 'Redirect target'], resolveRedirects: true });
      assert.deepEqual(r.redirects, [
        { from: 'Redirect two', to: 'Redirect one', tofragment: '' },
        { from: 'Redirect to nowhere', to: 'Nowhere at all', tofragment: '' },
        { from: 'Redirect one', to: 'Redirect target', tofragment: 'Part two' },
      ]);
      assert.deepEqual(
        r.pages.map((p) => [p.title, p.missing]),
        [
          ['Redirect target', false],
          ['Nowhere at all', true],
        ],
      );
    });

    test('GetPage: missing pages are normalized records, invalid titles fail with invalidtitle', async () => {
      const missing = await call.getPage('talk:some_missing page');
      assert.equal(missing.page!.missing, true);
      assert.equal(missing.page!.title, 'Talk:Some missing page');
      assert.equal(missing.page!.ns, 1);
      assert.equal(missing.latest, undefined);

      await assert.rejects(call.getPage('a[b'), (e: unknown) => {
        assert.ok(e instanceof ServiceError);
        assert.equal(e.grpcCode, GrpcStatus.INVALID_ARGUMENT);
        assert.equal(e.mwCode, 'invalidtitle');
        assert.deepEqual(e.data, {
          title: 'a[b',
          reasonCode: 'title-invalid-characters',
          reason: 'The requested page title contains invalid characters: "[".',
        });
        return true;
      });
      await assert.rejects(call.getPage('Talk:'), (e: unknown) => e instanceof ServiceError && e.data.reasonCode === 'title-invalid-empty');
    });

    test('GetRevisions: history pages with continuation, both directions, latest and by id', async () => {
      let rev = await save(edit('History_page', 0, 'v0'));
      const ids = [rev.revId];
      for (let i = 1; i < 7; i++) {
        rev = await save(edit('History_page', rev.revId, `v${i}`.repeat(i), { minor: i % 2 === 0, tags: i === 3 ? ['mw-replace', 'bot-tag'] : [] }));
        ids.push(rev.revId);
      }
      const pageId = rev.pageId;

      const walk = async (dirNewer: boolean) => {
        const seen: number[] = [];
        let startId = 0;
        let calls = 0;
        do {
          const r = await call.getRevisions({ pageIds: [pageId], limit: 3, dirNewer, startId });
          assert.ok(r.revisions.length <= 3);
          seen.push(...r.revisions.map((x) => x.id));
          startId = r.nextId;
          calls++;
        } while (startId !== 0);
        assert.equal(calls, 3);
        return seen;
      };
      assert.deepEqual(await walk(false), [...ids].reverse());
      assert.deepEqual(await walk(true), ids);

      // The gateway asks for its highest rvlimit (5000, apihighlimits) plus one row that says whether more follow.
      assert.equal((await call.getRevisions({ pageIds: [pageId], limit: 5001 })).revisions.length, ids.length);
      await assert.rejects(call.getRevisions({ pageIds: [pageId], limit: 5002 }), /limit must be between 0 and 5001/);

      const full = await call.getRevisions({ pageIds: [pageId], limit: 10, dirNewer: true, withContent: true });
      full.revisions.forEach((r, i) => {
        assert.equal(r.parentId, i === 0 ? 0 : ids[i - 1]);
        assert.equal(r.parentSize, i === 0 ? -1 : full.revisions[i - 1]!.size);
        assert.equal(r.size, Buffer.byteLength(r.content!));
        assert.equal(r.sha1, sha1Base36(r.content!));
        assert.equal(r.minor, i > 0 && i % 2 === 0);
        assert.equal(r.userId, 0);
        assert.equal(r.userText, '192.0.2.1');
      });
      assert.deepEqual(full.revisions[3]!.tags, ['bot-tag', 'mw-replace']);

      const latest = await call.getRevisions({ pageIds: [pageId, 1, 424242] });
      assert.deepEqual(
        latest.revisions.map((r) => r.id),
        [1, ids.at(-1)],
      );
      const byId = await call.getRevisions({ revIds: [ids[2]!, 1, 99999999], withContent: true });
      assert.deepEqual(
        byId.revisions.map((r) => [r.id, r.content]),
        [
          [ids[2], 'v2v2'],
          [1, MAIN_PAGE_TEXT],
        ],
      );
      const page = (await call.getPage('History page')).page!;
      assert.equal(page.isNew, false);
      assert.equal(page.latestRevId, ids.at(-1));

      await assert.rejects(call.getRevisions({ pageIds: [pageId, 1], limit: 5 }), (e: unknown) => e instanceof ServiceError && e.mwCode === 'invalidparammix');
    });

    test('saveRevision: concurrent saves on one base — exactly one wins, parents form one chain', async () => {
      const base = await save(edit('Contested_page', 0, 'base'));
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => save(edit('Contested_page', base.revId, `edit ${i}`))));
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      assert.equal(won.length, 1);
      for (const l of lost) {
        assert.ok(l.reason instanceof ServiceError, String(l.reason));
        assert.equal(l.reason.mwCode, 'editconflict');
        assert.equal(l.reason.data.latestRevId, (won[0] as PromiseFulfilledResult<{ revId: number }>).value.revId);
      }
      const history = await call.getRevisions({ pageIds: [base.pageId], limit: 50, dirNewer: true });
      assert.deepEqual(
        history.revisions.map((r) => r.parentId),
        [0, base.revId],
      );

      // Creating a page that exists, or updating one that does not, fails the same way.
      const creates = await Promise.allSettled([save(edit('Created_twice', 0, 'a')), save(edit('Created_twice', 0, 'b'))]);
      assert.deepEqual(creates.map((c) => c.status).sort(), ['fulfilled', 'rejected']);
      const refused = creates.find((c): c is PromiseRejectedResult => c.status === 'rejected')!;
      assert.equal((refused.reason as ServiceError).mwCode, 'articleexists');
      await assert.rejects(save(edit('Never_created', 5, 'x')), (e: unknown) => e instanceof ServiceError && e.mwCode === 'missingtitle');
    });

    test('replication lag is -1 without replicas', async () => {
      assert.deepEqual(await call.getReplicationLag(), { lagSeconds: -1, host: '' });
    });

    if (backend === 'servers' && process.env.DATABASE_URL) {
      test('replication lag is read from CONTENT_REPLICA_DATABASE_URLS', async () => {
        const te2 = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0', CONTENT_REPLICA_DATABASE_URLS: process.env.DATABASE_URL });
        const svc2 = await startService(contentService, te2.env);
        const c2 = makeClient(SiteServiceClient, svc2.address);
        try {
          const lag = await unary(c2, c2.getReplicationLag, {});
          assert.ok(lag.lagSeconds >= 0);
          assert.equal(lag.host, new URL(process.env.DATABASE_URL!).host);
        } finally {
          c2.close();
          await svc2.stop();
          await te2.cleanup();
        }
      });

      test('two instances starting at once on one database create the Main Page once', async () => {
        const te2 = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0' });
        try {
          const [a, b] = await Promise.all([startService(contentService, te2.env), startService(contentService, { ...te2.env, DATA_DIR: `${te2.dataDir}/second` })]);
          const c2 = makeClient(SiteServiceClient, b.address);
          const stats = await unary(c2, c2.getStatistics, {});
          assert.equal(stats.pages, 1);
          assert.equal(stats.edits, 1);
          c2.close();
          await Promise.all([a.stop(), b.stop()]);
        } finally {
          await te2.cleanup();
        }
      });
    }

    if (backend === 'embedded') {
      test('a second process on the same data folder fails with DataDirLockedError', async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'services/content/src/main.ts'], {
          cwd: repoRoot,
          env: { ...te.env, CONTENT_GRPC_PORT: '0' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
        assert.notEqual(code, 0);
        assert.match(stderr, new RegExp(`already owned by process ${process.pid}`));
        assert.match(stderr, /set DATABASE_URL/);
      });
    }
  });
}
