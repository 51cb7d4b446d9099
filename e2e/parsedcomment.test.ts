/*
 * parsedcomment (MediaWiki's CommentFormatter / Linker::formatComment) in every module that
 * shows it: autocomments become section links of the row's page, [[links]] become links (red
 * when the page is missing, mw-redirect for redirects), everything else is escaped. Each module
 * formats all its rows' comments in one FormatComments call. The expected HTML is what
 * MediaWiki 1.39 answered for the same summaries on the same pages (reference wiki).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

const API = '/w/api.php';
const PAGE = 'Quire comment test';

/** [summary, MediaWiki's parsedcomment of it on PAGE]. */
const CASES: [string, string][] = [
  [
    '/* Section one */ fixed [[Main Page]] and [[No such page xyz|label]] <b>bold</b> & "quotes" \'apos\'',
    '<span dir="auto"><span class="autocomment"><a href="/wiki/Quire_comment_test#Section_one" title="Quire comment test">→‎Section one</a>: </span> fixed <a href="/wiki/Main_Page" title="Main Page">Main Page</a> and <a href="/w/index.php?title=No_such_page_xyz&amp;action=edit&amp;redlink=1" class="new" title="No such page xyz (page does not exist)">label</a> &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot; &#039;apos&#039;</span>',
  ],
  [
    '[[Special:RecentChanges]] [[User talk:Alice#Foo|x]] [[main Page]]s and [[:Help:Nothing]]',
    '<a href="/wiki/Special:RecentChanges" title="Special:RecentChanges">Special:RecentChanges</a> <a href="/w/index.php?title=User_talk:Alice&amp;action=edit&amp;redlink=1" class="new" title="User talk:Alice (page does not exist)">x</a> <a href="/wiki/Main_Page" title="Main Page">main Pages</a> and <a href="/w/index.php?title=Help:Nothing&amp;action=edit&amp;redlink=1" class="new" title="Help:Nothing (page does not exist)">Help:Nothing</a>',
  ],
  ['/* A */', '<span dir="auto"><span class="autocomment"><a href="/wiki/Quire_comment_test#A" title="Quire comment test">→‎A</a></span></span>'],
  [
    'text /* B [[Main Page]] */ more',
    'text <span dir="auto"><span class="autocomment"><a href="/wiki/Quire_comment_test#B_Main_Page" title="Quire comment test">→‎B &#91;&#91;Main Page&#93;&#93;</a>: </span> more</span>',
  ],
  [
    '[[Quire redirect src]] [[Quire PST test#Sec tion|here]] [[#Local]] [[Media:Foo.png]] [[File:Foo.png]]',
    '<a href="/wiki/Quire_redirect_src" class="mw-redirect" title="Quire redirect src">Quire redirect src</a> <a href="/wiki/Quire_PST_test#Sec_tion" title="Quire PST test">here</a> <a href="/wiki/Quire_comment_test#Local" title="Quire comment test">#Local</a> <a href="/w/index.php?title=Special:Upload&amp;wpDestFile=Foo.png" class="new" title="Foo.png">Media:Foo.png</a> <a href="/w/index.php?title=File:Foo.png&amp;action=edit&amp;redlink=1" class="new" title="File:Foo.png (page does not exist)">File:Foo.png</a>',
  ],
  [
    '&amp; &lt; &#91; %41 [[Main%20Page]] [[a|b]]]] [[ Main Page ]]',
    '&amp; &lt; [ %41 <a href="/wiki/Main_Page" title="Main Page">Main Page</a> <a href="/w/index.php?title=A&amp;action=edit&amp;redlink=1" class="new" title="A (page does not exist)">b</a>]] <a href="/wiki/Main_Page" title="Main Page">Main Page </a>',
  ],
];

async function login(wiki: TestWiki, name: string, password: string) {
  const client = new WikiClient(wiki.baseUrl);
  // A sysop, to protect a page (a logged action with a reason).
  await runAdmin(['createAndPromote', name, password, '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
  const lt = (await client.api({ action: 'query', meta: 'tokens', type: 'login' })).json<any>().query.tokens.logintoken;
  const r = (await client.post(API, { format: 'json', action: 'login', lgname: name, lgpassword: password, lgtoken: lt })).json<any>();
  assert.equal(r.login?.result, 'Success', JSON.stringify(r));
  const token = (await client.api({ action: 'query', meta: 'tokens' })).json<any>().query.tokens.csrftoken as string;
  const post = async (params: Record<string, string>) => {
    const j = (await client.post(API, { format: 'json', formatversion: '2', token, ...params })).json<any>();
    assert.equal(j.error, undefined, JSON.stringify(j));
    return j;
  };
  return { client, post };
}

for (const backend of testBackends()) {
  describe(`parsedcomment (${backend})`, () => {
    let wiki: TestWiki;
    let alice: Awaited<ReturnType<typeof login>>;
    const revids: number[] = [];

    before(async () => {
      wiki = await startWiki(backend, {
        RATE_LIMITS: JSON.stringify({ edit: { ip: [100000, 60], user: [100000, 60], newbie: [100000, 60] } }),
      });
      alice = await login(wiki, 'Alice', 'alicepass123456');
      await alice.post({ action: 'edit', title: 'Quire PST test', text: 'x' });
      await alice.post({ action: 'edit', title: 'Quire redirect src', text: '#REDIRECT [[Main Page]]' });
      for (const [i, [summary]] of CASES.entries()) {
        revids.push((await alice.post({ action: 'edit', title: PAGE, text: `v${i} x`, summary, watchlist: 'watch' })).edit.newrevid);
      }
    });
    after(() => wiki?.close());

    test('prop=revisions formats each summary as MediaWiki does', async () => {
      const j = (await wiki.api({ action: 'query', prop: 'revisions', titles: PAGE, rvprop: 'ids|comment|parsedcomment', rvlimit: 'max', rvdir: 'newer', formatversion: '2' })).json<any>();
      const revs = j.query.pages[0].revisions as { revid: number; comment: string; parsedcomment: string }[];
      assert.deepEqual(
        revs.map((r) => r.comment),
        CASES.map(([s]) => s),
      );
      for (const [i, [summary, html]] of CASES.entries()) assert.equal(revs[i]!.parsedcomment, html, summary);
    });

    test('list=recentchanges, list=usercontribs and list=watchlist show the same HTML', async () => {
      const expected = CASES.map(([, html]) => html);
      const rc = (await wiki.api({ action: 'query', list: 'recentchanges', rctitle: PAGE, rcprop: 'ids|comment|parsedcomment', rcdir: 'newer', rclimit: 'max', formatversion: '2' })).json<any>();
      assert.deepEqual(
        rc.query.recentchanges.map((c: any) => c.parsedcomment),
        expected,
      );
      const uc = (await wiki.api({ action: 'query', list: 'usercontribs', ucuser: 'Alice', ucprop: 'ids|title|parsedcomment', ucdir: 'newer', uclimit: 'max', formatversion: '2' })).json<any>();
      assert.deepEqual(
        uc.query.usercontribs.filter((c: any) => c.title === PAGE).map((c: any) => c.parsedcomment),
        expected,
      );
      const wl = (await alice.client.api({ action: 'query', list: 'watchlist', wlprop: 'ids|title|parsedcomment', wlallrev: '1', wldir: 'newer', wllimit: 'max', formatversion: '2' })).json<any>();
      assert.deepEqual(
        wl.query.watchlist.filter((c: any) => c.title === PAGE).map((c: any) => c.parsedcomment),
        expected,
      );
      // parsedcomment alone, without comment, and its place right after comment (MediaWiki's order).
      const one = (await wiki.api({ action: 'query', list: 'recentchanges', rctitle: PAGE, rcprop: 'title|comment|parsedcomment|timestamp', rclimit: '1', formatversion: '2' })).json<any>();
      assert.deepEqual(Object.keys(one.query.recentchanges[0]), ['type', 'ns', 'title', 'timestamp', 'comment', 'parsedcomment']);
    });

    test('action=compare formats both sides against their own pages', async () => {
      const j = (await wiki.api({ action: 'compare', fromrev: String(revids[0]), torev: String(revids[2]), prop: 'parsedcomment', formatversion: '2' })).json<any>();
      assert.equal(j.compare.fromparsedcomment, CASES[0]![1]);
      assert.equal(j.compare.toparsedcomment, CASES[2]![1]);
    });

    test("list=logevents links autocomments to the log entry's page", async () => {
      await alice.post({ action: 'edit', title: 'Logged page', text: 'x' });
      await alice.post({ action: 'protect', title: 'Logged page', protections: 'edit=autoconfirmed', reason: '/* Why */ see [[Main Page]]' });
      const j = (await wiki.api({ action: 'query', list: 'logevents', letitle: 'Logged page', leprop: 'title|comment|parsedcomment', formatversion: '2' })).json<any>();
      const e = j.query.logevents[0];
      assert.equal(e.comment, '/* Why */ see [[Main Page]]');
      assert.equal(
        e.parsedcomment,
        '<span dir="auto"><span class="autocomment"><a href="/wiki/Logged_page#Why" title="Logged page">→\u200eWhy</a>: </span> see <a href="/wiki/Main_Page" title="Main Page">Main Page</a></span>',
      );
      assert.deepEqual(Object.keys(e), ['ns', 'title', 'comment', 'parsedcomment']);
    });
  });
}
