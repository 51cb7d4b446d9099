import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { User, ListNamespacesResponse, RecentChange } from '../../clients/types.js';
import { applyDiffStyle, diffTable, feedrecentchangesModule, mergeAdjacentEdits } from './feedrecentchanges.js';
import { logActionText } from '../log-action-text.js';
import { fakeContext } from '../query/testing.js';
import { ApiUsageError, type Params } from '../types.js';

const NAMESPACES = {
  namespaces: [
    { id: 0, name: '' },
    { id: 1, name: 'Talk' },
  ],
} as unknown as ListNamespacesResponse;
const ADMIN: User = { id: 2, name: 'Admin', anonymous: false, groups: ['*', 'user'], rights: ['read'] };

function rc(over: Partial<RecentChange>): RecentChange {
  return {
    rcId: 1,
    type: 'edit',
    ns: 0,
    title: 'FeedC',
    pageId: 5,
    revId: 9,
    oldRevId: 8,
    user: 'Admin',
    userId: 2,
    anon: false,
    comment: 'c',
    timestamp: '2026-11-27T13:36:00Z',
    minor: false,
    bot: false,
    new: false,
    oldLen: 0,
    newLen: 0,
    patrolled: 0,
    logId: 0,
    logType: '',
    logAction: '',
    logParamsJson: '',
    tags: [],
    sha1: '',
    redirect: false,
    top: false,
    deleted: 0,
    ...over,
  };
}

test('adjacent edits of one user to one page become one item diffed from before the run (ChangesFeed::buildItems)', () => {
  const rows = [
    rc({ rcId: 4, revId: 9, oldRevId: 8 }),
    rc({ rcId: 3, revId: 8, oldRevId: 7 }),
    rc({ rcId: 2, revId: 7, oldRevId: 6, user: 'Bob' }),
    rc({ rcId: 1, type: 'new', revId: 6, oldRevId: 0 }),
  ];
  const merged = mergeAdjacentEdits(rows);
  assert.deepEqual(
    merged.map((r) => [r.rcId, r.revId, r.oldRevId]),
    [
      [4, 9, 7],
      [2, 7, 6],
      [1, 6, 0],
    ],
  );
});

test('the diff table: header messages, the multi notice, the empty diff, and the inline styles', () => {
  const empty = diffTable('', '2026-11-27T13:35:45Z');
  assert.equal(
    applyDiffStyle(empty),
    '<table style="background-color: #fff; color: #202122;" data-mw="interface">\n\t\t\t\t<tr class="diff-title" lang="en">\n' +
      '\t\t\t\t<td colspan="1" style="background-color: #fff; color: #202122; text-align: center;">← Older revision</td>\n' +
      '\t\t\t\t<td colspan="1" style="background-color: #fff; color: #202122; text-align: center;">Revision as of 13:35, 27 November 2026</td>\n' +
      '\t\t\t\t</tr><tr><td colspan="2" class="diff-notice" lang="en"><div class="mw-diff-empty">(No difference)</div>\n</td></tr></table>',
  );
  const body = '<tr>\n  <td class="diff-marker" data-marker="+"></td>\n  <td class="diff-addedline diff-side-added"><div><ins class="diffchange diffchange-inline">x</ins></div></td>\n</tr>\n';
  const styled = applyDiffStyle(diffTable(body, '2026-11-27T13:35:45Z', '(One intermediate revision by the same user not shown)'));
  assert.match(styled, /<col class="diff-marker" \/>/);
  assert.match(styled, /<tr><td colspan="4" class="diff-multi" lang="en">\(One intermediate revision by the same user not shown\)<\/td><\/tr>/);
  assert.match(styled, /<td style="color: #202122; font-size: 88%;[^"]*border-color: #a3d3ff;[^"]*"><div><ins style="font-weight: bold; text-decoration: none;">x<\/ins>/);
  assert.doesNotMatch(styled, /class="diff(?:-addedline|change)/);
});

test('log action text: user and page links (red, redirect), move targets, the protection description', () => {
  const kinds: Record<string, 'page' | 'redirect'> = { FeedA: 'page', FeedD: 'redirect', FeedD2: 'page' };
  const exists = (t: string) => kinds[t] ?? 'missing';
  const row = { user: 'Admin', anon: false, title: 'FeedA' };
  assert.equal(
    logActionText({ ...row, logType: 'protect', logAction: 'protect', logParamsJson: JSON.stringify({ details: [{ type: 'edit', level: 'sysop', expiry: 'infinity' }], description: 'x' }) }, exists),
    '<a href="/w/index.php?title=User:Admin&amp;action=edit&amp;redlink=1" class="new mw-userlink" title="User:Admin (page does not exist)"><bdi>Admin</bdi></a> protected <a href="/wiki/FeedA" title="FeedA">FeedA</a> [Edit=Allow only administrators] (indefinite)',
  );
  assert.equal(
    logActionText({ ...row, title: 'FeedD', logType: 'move', logAction: 'move', logParamsJson: JSON.stringify({ target_ns: 0, target_title: 'FeedD2' }) }, exists),
    '<a href="/w/index.php?title=User:Admin&amp;action=edit&amp;redlink=1" class="new mw-userlink" title="User:Admin (page does not exist)"><bdi>Admin</bdi></a> moved page <a href="/w/index.php?title=FeedD&amp;redirect=no" class="mw-redirect" title="FeedD">FeedD</a> to <a href="/wiki/FeedD2" title="FeedD2">FeedD2</a>',
  );
  assert.equal(
    logActionText({ user: '10.0.0.1', anon: true, title: 'Gone <x>', logType: 'delete', logAction: 'delete', logParamsJson: '' }, exists),
    '<a href="/wiki/Special:Contributions/10.0.0.1" class="mw-userlink mw-anonuserlink" title="Special:Contributions/10.0.0.1"><bdi>10.0.0.1</bdi></a> deleted page <a href="/w/index.php?title=Gone_%3Cx%3E&amp;action=edit&amp;redlink=1" class="new" title="Gone &lt;x&gt; (page does not exist)">Gone &lt;x&gt;</a>',
  );
});

function setup(params: Params, changes: RecentChange[]) {
  const { ctx } = fakeContext(
    feedrecentchangesModule,
    {
      feedformat: 'rss',
      days: 7,
      limit: 50,
      invert: false,
      associated: false,
      hideminor: false,
      hidebots: false,
      hideanons: false,
      hideliu: false,
      hidepatrolled: false,
      hidemyself: false,
      hidecategorization: false,
      showlinkedto: false,
      ...params,
    },
    { namespaces: NAMESPACES },
    { user: ADMIN },
  );
  const requests: Record<string, unknown>[] = [];
  const clients = ctx.deps.clients as unknown as Record<string, Record<string, unknown>>;
  clients.content!.listRecentChanges = async (req: Record<string, unknown>) => (requests.push(req), { changes: changes.filter((c) => !req.tag || c.tags.includes(req.tag as string)) });
  clients.content!.formatComments = async (items: { comment: string }[]) => items.map((i) => `<i>${i.comment}</i>`);
  clients.content!.resolvePages = async (req: { titles: string[] }) => ({
    pages: req.titles.map((t) => ({ title: t, id: t === 'Linker' ? 7 : 0, ns: 0, missing: t !== 'Linker', special: false, redirect: false })),
    invalid: req.titles.filter((t) => t.includes('|')),
  });
  clients.content!.getRevisions = async () => ({ revisions: [{ id: 6, content: "a <b>\n'c'", userText: 'Admin' }], nextId: 0 });
  clients.content!.listPageLinks = async () => ({ links: [{ title: 'FeedC' }], continue: '' });
  let sent: { body: string; contentType: string } | undefined;
  (ctx as { setRawOutput: unknown }).setRawOutput = (o: typeof sent) => (sent = o);
  return { ctx, requests, sent: () => sent! };
}

test("feedrecentchanges: the filters become the listing's, the new page's text is the description", async () => {
  const created = rc({ rcId: 1, type: 'new', revId: 6, oldRevId: 0, comment: 'made', tags: ['t2'] });
  const s = setup({ namespace: 1, associated: true, hideminor: true, hidebots: true, hideliu: true, hidemyself: true, hidecategorization: true, days: 1000, tagfilter: 't1|t2' }, [created]);
  await feedrecentchangesModule.execute(s.ctx);
  assert.equal(s.requests.length, 2);
  const req = s.requests[0]!;
  assert.deepEqual(req.namespaces, [1, 0]);
  assert.deepEqual(req.types, ['edit', 'new', 'log']);
  assert.equal(req.excludeUser, 'Admin');
  assert.deepEqual([req.minor, req.bot, req.anon, req.patrolled], [-1, -1, 1, 0]);
  // days is capped at $wgRCMaxAge (90 days).
  assert.ok(Math.abs(Date.parse(req.end as string) - (Date.now() - 90 * 86400_000)) < 5000);
  assert.deepEqual(
    s.requests.map((r) => r.tag),
    ['t1', 't2'],
  );
  const body = s.sent().body;
  assert.match(body, /<title>AnchorWiki {2}- Recent changes \[en\]<\/title>/);
  assert.match(body, /<link>http:\/\/[^<]*\/w\/index\.php\?title=FeedC&amp;diff=6&amp;oldid=0<\/link>/);
  assert.ok(
    body.includes(
      '<description>&lt;p&gt;&lt;i&gt;made&lt;/i&gt;&lt;/p&gt;\n&lt;p&gt;&lt;b&gt;New page&lt;/b&gt;&lt;/p&gt;&lt;div&gt;a &amp;lt;b&amp;gt;&lt;br /&gt;\n&amp;#039;c&amp;#039;&lt;/div&gt;</description>',
    ),
    body,
  );
  assert.match(body, /<comments>http:\/\/[^<]*\/wiki\/Talk:FeedC<\/comments>/);
});

test("feedrecentchanges: related changes of a target (a revision-deleted change left out), and a bad target's invalidtitle", async () => {
  const rows = [
    rc({ rcId: 3, title: 'FeedC', revId: 7, oldRevId: 6, deleted: 1 }),
    rc({ rcId: 2, title: 'Other', pageId: 9, revId: 0, oldRevId: 0, type: 'log', logType: 'delete', logAction: 'delete' }),
    rc({ rcId: 1, type: 'new', revId: 6, oldRevId: 0 }),
  ];
  const s = setup({ target: 'Linker' }, rows);
  await feedrecentchangesModule.execute(s.ctx);
  const body = s.sent().body;
  assert.match(body, /Changes related to &quot;Linker&quot;/);
  assert.equal(body.match(/<item>/g)?.length, 1);
  assert.match(body, /<title>FeedC<\/title>/);
  const bad = setup({ target: 'A|B' }, rows);
  await assert.rejects(feedrecentchangesModule.execute(bad.ctx), (e) => e instanceof ApiUsageError && e.code === 'invalidtitle');
});
