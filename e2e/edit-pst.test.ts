/*
 * The pre-save transform on saves (MediaWiki's DerivedPageDataUpdater::prepareContent): wikitext
 * saved through action=edit or the REST page routes gets its signatures, substitutions and pipe
 * tricks expanded before the nochange check; other content models are saved as sent. Expected
 * texts are MediaWiki 1.39's for the same edits (checked against the reference wiki).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

const API = '/w/api.php';
const ANON_TOKEN = '+\\';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The signature timestamp MediaWiki writes for a revision saved at `iso` (UTC wiki). */
function signatureTime(iso: string): string {
  const d = new Date(iso);
  const hhmm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return `${hhmm}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} (UTC)`;
}

interface Editor {
  client: WikiClient;
  token: string;
}

async function edit(editor: Editor, params: Record<string, string>) {
  const r = await editor.client.post(API, { action: 'edit', format: 'json', token: editor.token, ...params });
  assert.equal(r.status, 200);
  const j = r.json<any>();
  assert.ok(j.edit?.result === 'Success', JSON.stringify(j));
  return j.edit;
}

async function latest(wiki: WikiClient, title: string): Promise<{ content: string; timestamp: string; revid: number }> {
  const j = (await wiki.api({ action: 'query', prop: 'revisions', titles: title, rvprop: 'ids|content|timestamp', rvslots: 'main', formatversion: '2' })).json<any>();
  const rev = j.query.pages[0].revisions[0];
  return { content: rev.slots.main.content, timestamp: rev.timestamp, revid: rev.revid };
}

async function registeredEditor(wiki: TestWiki, name: string, password: string): Promise<Editor> {
  const client = new WikiClient(wiki.baseUrl);
  const createtoken = (await client.api({ action: 'query', meta: 'tokens', type: 'createaccount' })).json<any>().query.tokens.createaccounttoken;
  const created = (await client.post(API, { format: 'json', action: 'createaccount', username: name, password, retype: password, createreturnurl: 'http://x/', createtoken })).json<any>();
  assert.equal(created.createaccount?.status, 'PASS', JSON.stringify(created));
  const lt = (await client.api({ action: 'query', meta: 'tokens', type: 'login' })).json<any>().query.tokens.logintoken;
  const login = (await client.post(API, { format: 'json', action: 'login', lgname: name, lgpassword: password, lgtoken: lt })).json<any>();
  assert.equal(login.login?.result, 'Success', JSON.stringify(login));
  const token = (await client.api({ action: 'query', meta: 'tokens' })).json<any>().query.tokens.csrftoken;
  return { client, token };
}

for (const backend of testBackends()) {
  describe(`pre-save transform of edits (${backend})`, () => {
    let wiki: TestWiki;
    let anon: Editor;
    let alice: Editor;

    before(async () => {
      wiki = await startWiki(backend, {
        RATE_LIMITS: JSON.stringify({ edit: { ip: [100000, 60], user: [100000, 60], newbie: [100000, 60] } }),
        AUTH_ACCOUNT_CREATION_THROTTLE: '1000/86400',
      });
      anon = { client: new WikiClient(wiki.baseUrl), token: ANON_TOKEN };
      alice = await registeredEditor(wiki, 'Alice', 'alicepass123456');
    });
    after(() => wiki?.close());

    test('signatures of an anonymous editor link to its contributions; pipe trick; only the end is trimmed', async () => {
      const text = 'Anon: ~~~ / ~~~~ / ~~~~~\n[[Foo (bar)|]] [[Help:Baz (qux)|]]   \ntrailing   \n\n';
      const md5 = createHash('md5').update(text, 'utf8').digest('hex');
      // md5 is of the text as sent (ApiEditPage checks it before the transform).
      const saved = await edit(anon, { title: 'PST anon', text, md5 });
      const rev = await latest(wiki, 'PST anon');
      assert.equal(rev.revid, saved.newrevid);
      assert.equal(rev.timestamp, saved.newtimestamp);
      const sig = '[[Special:Contributions/127.0.0.1|127.0.0.1]]';
      const time = signatureTime(rev.timestamp);
      assert.equal(rev.content, `Anon: ${sig} / ${sig} ${time} / ${time}\n[[Foo (bar)|Foo]] [[Help:Baz (qux)|Baz]]   \ntrailing`);
    });

    test('md5 is of the text as sent, CRLF line ends included; the saved text has LF', async () => {
      // MediaWiki::Bot sends CRLF and the md5 of exactly that.
      const text = 'first line\r\nsecond line\r\n';
      const saved = await edit(anon, { title: 'CRLF md5', text, md5: createHash('md5').update(text, 'utf8').digest('hex') });
      assert.equal((await latest(wiki, 'CRLF md5')).revid, saved.newrevid);
      assert.equal((await latest(wiki, 'CRLF md5')).content, 'first line\nsecond line');
      // The hash of the normalized text is not the hash of what was sent.
      const r = await anon.client.post(API, { action: 'edit', format: 'json', token: ANON_TOKEN, title: 'CRLF md5', text, md5: createHash('md5').update('first line\nsecond line\n').digest('hex') });
      assert.equal(r.json<any>().error?.code, 'badmd5');
      assert.equal((await latest(wiki, 'CRLF md5')).revid, saved.newrevid);
    });

    test('a registered user signs with user and talk page links; subst: expands; nowiki is left alone', async () => {
      await edit(alice, { title: 'Template:Greeting', text: 'Hello {{{1|world}}}!' });
      const saved = await edit(alice, { title: 'PST user', text: 'User: ~~~~ {{subst:Greeting|there}} {{safesubst:Greeting}} <nowiki>~~~~</nowiki>' });
      const rev = await latest(wiki, 'PST user');
      assert.equal(rev.revid, saved.newrevid);
      assert.equal(rev.content, `User: [[User:Alice|Alice]] ([[User talk:Alice|talk]]) ${signatureTime(rev.timestamp)} Hello there! Hello world! <nowiki>~~~~</nowiki>`);
      // The substituted template is no longer transcluded.
      const templates = (await wiki.api({ action: 'query', prop: 'templates', titles: 'PST user', formatversion: '2' })).json<any>();
      assert.equal(templates.query.pages[0].templates, undefined);
    });

    test('section edits and appends are transformed too', async () => {
      await edit(alice, { title: 'PST talk', text: '== One ==\nFirst.' });
      await edit(alice, { title: 'PST talk', section: 'new', sectiontitle: 'Two', text: 'Reply ~~~' });
      await edit(alice, { title: 'PST talk', section: '1', text: '== One ==\nFirst, see [[Bar (baz)|]].' });
      await edit(anon, { title: 'PST talk', appendtext: '\n:Me too. ~~~' });
      assert.equal(
        (await latest(wiki, 'PST talk')).content,
        '== One ==\nFirst, see [[Bar (baz)|Bar]].\n\n== Two ==\n\nReply [[User:Alice|Alice]] ([[User talk:Alice|talk]])\n:Me too. [[Special:Contributions/127.0.0.1|127.0.0.1]]',
      );
    });

    test('no change when the transformed text equals the current text', async () => {
      const first = await edit(alice, { title: 'PST nochange', text: 'See [[Foo (bar)|Foo]].' });
      const again = await edit(alice, { title: 'PST nochange', text: 'See [[Foo (bar)|]].   \n\n' });
      assert.equal(again.nochange, '');
      assert.equal(again.newrevid, undefined);
      assert.equal((await latest(wiki, 'PST nochange')).revid, first.newrevid);
    });

    test('REST PUT and POST save the transformed text and answer with it', async () => {
      const created = await anon.client.request('POST', '/w/rest.php/v1/page', JSON.stringify({ title: 'PST rest', source: 'Created ~~~', comment: 'c', token: ANON_TOKEN }), {
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(created.status, 201, created.text);
      const body = created.json<any>();
      assert.equal(body.source, 'Created [[Special:Contributions/127.0.0.1|127.0.0.1]]');
      const put = await alice.client.request(
        'PUT',
        '/w/rest.php/v1/page/PST_rest',
        // A session's write needs its CSRF token in the body.
        JSON.stringify({ source: 'Updated ~~~~ [[Foo (bar)|]]', comment: 'u', latest: { id: body.latest.id }, token: alice.token }),
        { headers: { 'content-type': 'application/json' } },
      );
      assert.equal(put.status, 200, put.text);
      const updated = put.json<any>();
      const expected = `Updated [[User:Alice|Alice]] ([[User talk:Alice|talk]]) ${signatureTime(updated.latest.timestamp)} [[Foo (bar)|Foo]]`;
      assert.equal(updated.source, expected);
      assert.equal((await latest(wiki, 'PST rest')).content, expected);
    });

    test('JSON and other non-wikitext content is saved untransformed', async () => {
      const json = '{"sig": "~~~~", "link": "[[Foo (bar)|]]", "sub": "{{subst:Greeting}}"}';
      await edit(alice, { title: 'PST data', text: json, contentmodel: 'json' });
      const rev = await latest(wiki, 'PST data');
      assert.deepEqual(JSON.parse(rev.content), { sig: '~~~~', link: '[[Foo (bar)|]]', sub: '{{subst:Greeting}}' });
      await edit(alice, { title: 'User:Alice/common.css', text: '/* ~~~~ */\nbody { color: red; }' });
      assert.equal((await latest(wiki, 'User:Alice/common.css')).content, '/* ~~~~ */\nbody { color: red; }');
    });
  });
}
