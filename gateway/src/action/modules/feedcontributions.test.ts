import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UserContrib } from '../../clients/types.js';
import { contributionDescription, contributionsCutoff, feedcontributionsModule } from './feedcontributions.js';
import { renderFeed } from '../feed.js';
import { fakeContext, NAMESPACES } from '../query/testing.js';
import type { Params } from '../types.js';

const contrib = (c: Partial<UserContrib>): UserContrib =>
  ({
    userId: 2,
    user: 'Admin',
    pageId: 2,
    revId: 2,
    parentId: 0,
    ns: 0,
    title: 'HelperC Feed',
    timestamp: '2026-11-25T15:08:26Z',
    new: true,
    minor: false,
    top: true,
    comment: '',
    size: 1,
    sizeDiff: 1,
    tags: [],
    patrolled: 0,
    deleted: 0,
    ...c,
  }) as UserContrib;

/** Runs the module over fake listings; returns the feed sent and the listing requests. */
async function run(params: Params, contribs: UserContrib[], texts: Record<number, string>) {
  const { ctx } = fakeContext(
    feedcontributionsModule,
    { feedformat: 'rss', tagfilter: [''], deletedonly: false, toponly: false, newonly: false, hideminor: false, showsizediff: false, ...params },
    { namespaces: NAMESPACES },
  );
  const requests: Record<string, unknown>[] = [];
  const content = ctx.deps.clients.content as unknown as Record<string, unknown>;
  content.listUserContribs = async (req: Record<string, unknown>) => (requests.push(req), { contribs: contribs.filter((c) => !req.tag || c.tags.includes(req.tag as string)) });
  content.getRevisions = async (req: { revIds: number[] }) => ({ revisions: req.revIds.map((id) => ({ id, content: texts[id] })) });
  let sent: { contentType: string; filename: string; body: string } | undefined;
  (ctx as { setRawOutput: unknown }).setRawOutput = (o: typeof sent) => (sent = o);
  await feedcontributionsModule.execute(ctx);
  return { sent: sent!, requests };
}

test('the item description is ApiFeedContributions::feedItemDesc: author, stripped comment, text with <br />', () => {
  assert.equal(
    contributionDescription('Admin', 'See [[Main Page|the main page]] & [[Talk:X]]', 'Line one & <b>two</b>\nsecond \'line\' "q"'),
    "<p>Admin: See the main page &amp; Talk:X</p>\n<hr />\n<div>Line one &amp; &lt;b&gt;two&lt;/b&gt;<br />\nsecond 'line' &quot;q&quot;</div>",
  );
  assert.equal(contributionDescription('', '', undefined), '<p>: </p>\n<hr />\n<div></div>');
});

test('year/month show contributions before the next month or year', () => {
  const now = new Date('2026-11-25T00:00:00Z');
  assert.equal(contributionsCutoff(undefined, undefined, now), undefined);
  assert.equal(contributionsCutoff(2026, 11, now)!.toISOString(), '2026-12-01T00:00:00.000Z');
  assert.equal(contributionsCutoff(2025, undefined, now)!.toISOString(), '2026-01-01T00:00:00.000Z');
  assert.equal(contributionsCutoff(undefined, 12, now)!.toISOString(), '2026-01-01T00:00:00.000Z', "December is last year's in November");
  assert.equal(contributionsCutoff(2024, 12, now)!.toISOString(), '2025-01-01T00:00:00.000Z');
});

test("RSS output as MediaWiki's templates print it (the reference wiki's bytes for the same revisions)", async () => {
  const { sent, requests } = await run(
    { user: 'Admin' },
    [contrib({ revId: 3, ns: 1, title: 'Talk:HelperC Feed', timestamp: '2026-11-25T15:08:27Z', comment: 'Created page with "talk"' }), contrib({})],
    { 3: 'talk', 2: 'x' },
  );
  assert.deepEqual(
    requests.map((r) => [r.users, r.limit, r.start, r.top, r.new, r.minor]),
    [[['Admin'], 50, '', 0, 0, 0]],
  );
  assert.equal(sent.contentType, 'application/xml');
  assert.equal(sent.filename, 'feed.xml');
  const body = sent.body.replace(/<lastBuildDate>[^<]*</, '<lastBuildDate>X<');
  assert.equal(
    body.split('\t\t<item>')[0],
    '<?xml version="1.0"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n\t<channel>\n\t\t<title>AnchorWiki - User contributions [en]</title>\n\t\t<link>http://127.0.0.1:8080/wiki/Special:Contributions/Admin</link>\n\t\t<description>User contributions</description>\n\t\t<language>en</language>\n\t\t<generator>MediaWiki 1.39.17</generator>\n\t\t<lastBuildDate>X</lastBuildDate>\n',
  );
  assert.equal(
    body.split('\t\t<item>')[1],
    '\n\t\t\t<title>Talk:HelperC Feed</title>\n\t\t\t<link>http://127.0.0.1:8080/w/index.php?title=Talk:HelperC_Feed&amp;diff=3</link>\n\t\t\t<guid isPermaLink="false">http://127.0.0.1:8080/w/index.php?title=Talk:HelperC_Feed&amp;diff=3</guid>\n' +
      '\t\t\t<description>&lt;p&gt;Admin: Created page with &amp;quot;talk&amp;quot;&lt;/p&gt;\n&lt;hr /&gt;\n&lt;div&gt;talk&lt;/div&gt;</description>\n\t\t\t<pubDate>Wed, 25 Nov 2026 15:08:27 GMT</pubDate>\n' +
      '\t\t\t<dc:creator>Admin</dc:creator>\n\t\t\t<comments>http://127.0.0.1:8080/wiki/Talk:HelperC_Feed</comments>\n\t\t</item>\n',
  );
  assert.ok(body.endsWith('</channel></rss>'));
});

test('filters: namespace, toponly/newonly/hideminor, a cutoff, tags (any of them), deletedonly, hidden fields', async () => {
  const contribs = [contrib({ revId: 5, tags: ['a'], timestamp: '2026-11-25T10:00:00Z' }), contrib({ revId: 4, tags: ['b'], deleted: 7, timestamp: '2026-11-24T10:00:00Z' })];
  const { sent, requests } = await run({ user: 'Admin', namespace: 0, toponly: true, newonly: true, hideminor: true, year: 2026, month: 11, tagfilter: ['a', 'b'], feedformat: 'atom' }, contribs, {
    5: 'five',
  });
  assert.deepEqual(
    requests.map((r) => [r.namespaces, r.top, r.new, r.minor, r.start, r.tag]),
    [
      [[0], 1, 1, -1, '2026-11-30T23:59:59Z', 'a'],
      [[0], 1, 1, -1, '2026-11-30T23:59:59Z', 'b'],
    ],
  );
  const entries = sent.body.split('\t<entry>').slice(1);
  assert.equal(entries.length, 2);
  assert.match(
    entries[1]!,
    /<summary type="html">&lt;p&gt;: &lt;\/p&gt;\n&lt;hr \/&gt;\n&lt;div&gt;&lt;\/div&gt;<\/summary>\n\t\t<author><name><\/name><\/author>\n\t<\/entry>/,
    'deleted text, comment and user are empty',
  );
  const deleted = await run({ user: 'Admin', deletedonly: true }, contribs, {});
  assert.equal(deleted.sent.body.split('<item>').length - 1, 1);
});

test('Atom header', () => {
  const atom = renderFeed('atom', { title: 'W - T [en]', description: 'D & d', url: 'http://w/wiki/X' }, [], {
    now: new Date('2026-11-25T15:00:00Z'),
    selfUrl: 'http://w/w/api.php?a=1&b=2',
    language: 'en',
  });
  assert.equal(
    atom,
    '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n\t<id>http://w/w/api.php?a=1&amp;b=2</id>\n\t<title>W - T [en]</title>\n\t<link rel="self" type="application/atom+xml" href="http://w/w/api.php?a=1&amp;b=2"/>\n\t<link rel="alternate" type="text/html" href="http://w/wiki/X"/>\n\t<updated>2026-11-25T15:00:00Z</updated>\n\t<subtitle>D &amp; d</subtitle>\n\t<generator>MediaWiki 1.39.17</generator>\n</feed>',
  );
});
