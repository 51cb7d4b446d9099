/*
 * Revision deletion on every read path, table-driven: one old revision per combination of hidden
 * fields (text, summary, author; each alone and all three, each plain and suppressed), read by
 * each caller (anonymous, a user, a sysop, a suppressor) on each path that shows a revision's
 * text, summary or author. What each caller should see is computed from the bits and the caller's
 * rights (meta=userinfo) by RevisionRecord::userCanBitfield written out here — not by the code under
 * test — so the cases are generated, not listed by hand.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';
import { loggedIn } from './files-helpers.js';

const quiet = () => undefined;
const TEXT = 1;
const COMMENT = 2;
const USER = 4;
const SUPPRESSED = 8;
type Field = typeof TEXT | typeof COMMENT | typeof USER;
const FIELDS: readonly Field[] = [TEXT, COMMENT, USER];
const FIELD_NAMES: Record<Field, string> = { [TEXT]: 'text', [COMMENT]: 'comment', [USER]: 'user' };

/** The hidden-field combinations: each field alone and all together, each plain and suppressed. */
const BITS = [TEXT, COMMENT, USER, TEXT | COMMENT | USER].flatMap((b) => [b, b | SUPPRESSED]);

/** Who may see a hidden field: FOR_THIS_USER (the caller's rights) or FOR_PUBLIC (nobody). */
type Audience = 'user' | 'public';

/** RevisionRecord::userCanBitfield, the oracle. */
function maySee(bits: number, field: Field, rights: readonly string[], audience: Audience): boolean {
  if (!(bits & field)) return true;
  if (audience === 'public') return false;
  const needed = bits & SUPPRESSED ? ['suppressrevision', 'viewsuppressed'] : field === TEXT ? ['deletedtext'] : ['deletedhistory'];
  return needed.some((r) => rights.includes(r));
}

interface Case {
  n: number;
  bits: number;
  page: string;
  revId: number;
  nextRevId: number;
  author: string;
}

interface Caller {
  name: string;
  client: WikiClient;
  rights: string[];
}

/** One read: the case, the caller, the answer and what the caller should have seen of it. */
interface Seen {
  c: Case;
  caller: Caller;
  answer: string;
  visible: Record<string, boolean>;
}

/** What a path shows of one hidden revision: the part of its answer about it, searched for the markers. */
interface ReadPath {
  name: string;
  /** The fields the path shows at all. */
  shows: readonly Field[];
  /** Who the text is shown to (the REST revision routes and action=raw serve public text only). */
  textAudience?: Audience;
  /** The whole answer is refused when this field is hidden from the caller (e.g. the text of REST /revision). */
  gate?: { field: Field; audience: Audience };
  /** The marker of the text on this path when it is not the text itself (e.g. a link to the revision). */
  textMarker?: (c: Case) => string;
  read(c: Case, caller: Caller): Promise<string>;
  /** Checks of the refusal or of the hidden flags (status, error code, …). */
  check?(seen: Seen): void;
}

const markers = (c: Case) => ({ [TEXT]: `SECRETTEXT${c.n}Z`, [COMMENT]: `SECRETSUMMARY${c.n}Z`, [USER]: c.author });
const title = (c: Case) => c.page.replaceAll(' ', '_');
const asJson = (s: string) => JSON.parse(s) as any;
/** The <li> lines of an HTML list that mention a string. */
const linesWith = (body: string, needle: string) => (body.match(/<li[\s\S]*?<\/li>/g) ?? []).filter((li) => li.includes(needle)).join('\n');

const PATHS: readonly ReadPath[] = [
  {
    name: 'action=parse&oldid',
    shows: [TEXT],
    async read(c, caller) {
      return (await caller.client.api({ action: 'parse', oldid: String(c.revId), prop: 'text', formatversion: '2' })).text;
    },
    check({ answer, visible }) {
      if (visible.text) return;
      assert.deepEqual({ code: asJson(answer).error?.code, info: asJson(answer).error?.info }, { code: 'permissiondenied', info: "You don't have permission to view deleted revision text." });
    },
  },
  {
    name: 'REST /revision/{id}/html',
    shows: [TEXT],
    textAudience: 'public',
    gate: { field: TEXT, audience: 'public' },
    async read(c, caller) {
      return (await caller.client.rest(`/v1/revision/${c.revId}/html`)).text;
    },
    check({ c, answer, visible }) {
      if (visible.text) return;
      const body = asJson(answer);
      assert.equal(body.httpCode, 403);
      assert.equal(body.messageTranslations.en, `User doesn't have access to the requested revision (${c.revId}).`);
    },
  },
  ...(['with_html', 'bare', ''] as const).map(
    (format): ReadPath => ({
      name: `REST /revision/{id}${format ? `/${format}` : ''}`,
      shows: format === 'bare' ? [COMMENT, USER] : FIELDS,
      textAudience: 'public',
      gate: { field: TEXT, audience: 'public' },
      async read(c, caller) {
        return (await caller.client.rest(`/v1/revision/${c.revId}${format ? `/${format}` : ''}`)).text;
      },
      check({ c, answer }) {
        if (maySee(c.bits, TEXT, [], 'public')) return;
        assert.equal(asJson(answer).httpCode, 403);
      },
    }),
  ),
  {
    name: 'REST /page/{title}/history',
    shows: [COMMENT, USER],
    async read(c, caller) {
      const revs = asJson((await caller.client.rest(`/v1/page/${encodeURIComponent(title(c))}/history`)).text).revisions as { id: number }[];
      return JSON.stringify(revs.find((r) => r.id === c.revId));
    },
  },
  {
    name: 'REST compare',
    shows: [TEXT],
    gate: { field: TEXT, audience: 'user' },
    async read(c, caller) {
      return (await caller.client.rest(`/v1/revision/${c.revId}/compare/${c.nextRevId}`)).text;
    },
  },
  {
    name: 'action=compare',
    shows: FIELDS,
    gate: { field: TEXT, audience: 'user' },
    async read(c, caller) {
      return (await caller.client.api({ action: 'compare', fromrev: String(c.revId), torev: String(c.nextRevId), prop: 'diff|user|comment', formatversion: '2' })).text;
    },
    check({ answer, visible }) {
      if (!visible.text) assert.equal(asJson(answer).error?.code, 'missingcontent');
    },
  },
  {
    name: 'prop=revisions',
    shows: FIELDS,
    async read(c, caller) {
      const r = asJson((await caller.client.api({ action: 'query', prop: 'revisions', revids: String(c.revId), rvprop: 'ids|content|comment|user', rvslots: 'main', formatversion: '2' })).text);
      return JSON.stringify(r.query.pages[0].revisions[0]);
    },
  },
  {
    name: 'list=recentchanges',
    shows: [COMMENT, USER],
    async read(c, caller) {
      const r = asJson((await caller.client.api({ action: 'query', list: 'recentchanges', rcprop: 'ids|user|userid|comment|parsedcomment|flags', rclimit: '500', formatversion: '2' })).text);
      return JSON.stringify(r.query.recentchanges.find((rc: { revid: number }) => rc.revid === c.revId));
    },
    check({ c, answer, visible }) {
      const rc = asJson(answer);
      assert.equal(rc.userhidden === true, (c.bits & USER) !== 0, 'userhidden');
      assert.equal(rc.commenthidden === true, (c.bits & COMMENT) !== 0, 'commenthidden');
      assert.equal(rc.suppressed === true, (c.bits & SUPPRESSED) !== 0 && (c.bits & (USER | COMMENT)) !== 0, 'suppressed');
      assert.equal('userid' in rc, visible.user, 'userid');
    },
  },
  {
    name: 'index.php oldid (unhide=1)',
    shows: FIELDS,
    async read(c, caller) {
      return (await caller.client.get(`/w/index.php?title=${title(c)}&oldid=${c.revId}&unhide=1`)).text;
    },
  },
  {
    name: 'index.php oldid (without unhide)',
    shows: [COMMENT, USER],
    // A text that is not hidden is shown as always.
    textMarker: (c) => (c.bits & TEXT ? markers(c)[TEXT] : 'NO-SUCH-MARKER'),
    async read(c, caller) {
      const body = (await caller.client.get(`/w/index.php?title=${title(c)}&oldid=${c.revId}`)).text;
      // Article::showDeletedRevisionHeader: without unhide=1 even those who may see it get no text.
      if (c.bits & TEXT) assert.ok(!body.includes(markers(c)[TEXT]), 'a hidden text needs unhide=1');
      return body;
    },
  },
  {
    name: 'index.php diff (unhide=1)',
    shows: FIELDS,
    gate: { field: TEXT, audience: 'user' },
    async read(c, caller) {
      return (await caller.client.get(`/w/index.php?title=${title(c)}&diff=${c.nextRevId}&oldid=${c.revId}&unhide=1`)).text;
    },
  },
  {
    name: 'action=raw&oldid',
    shows: [TEXT],
    textAudience: 'public',
    async read(c, caller) {
      return (await caller.client.get(`/w/index.php?title=${title(c)}&action=raw&oldid=${c.revId}`)).text;
    },
  },
  {
    name: 'action=history',
    shows: FIELDS,
    // The text is the link to the revision (date, cur and prev links).
    textMarker: (c) => `oldid=${c.revId}"`,
    async read(c, caller) {
      const body = (await caller.client.get(`/w/index.php?title=${title(c)}&action=history`)).text;
      return linesWith(body, `data-mw-revid="${c.revId}"`);
    },
    check({ c, caller, answer }) {
      if (c.bits & USER) assert.match(answer, /class="history-deleted/, 'a hidden author is struck out');
      if (c.bits & USER && !maySee(c.bits, USER, caller.rights, 'user')) assert.ok(answer.includes('(username removed)'));
      if (c.bits & COMMENT && !maySee(c.bits, COMMENT, caller.rights, 'user')) assert.ok(answer.includes('(edit summary removed)'));
    },
  },
  {
    name: 'Special:RecentChanges',
    shows: [COMMENT, USER],
    async read(c, caller) {
      const body = (await caller.client.get('/w/index.php?title=Special:RecentChanges&limit=500&days=30')).text;
      return linesWith(body, `>${c.page}</a>`);
    },
  },
  {
    name: 'Special:Contributions',
    shows: FIELDS,
    textMarker: (c) => `oldid=${c.revId}"`,
    // ContribsPager leaves out revisions whose author is hidden from the reader.
    gate: { field: USER, audience: 'user' },
    async read(c, caller) {
      const body = (await caller.client.get(`/w/index.php?title=Special:Contributions/${encodeURIComponent(c.author)}`)).text;
      // The author's name heads the page whoever asks: the revision is attributed to them when its line is listed.
      const line = linesWith(body, `data-mw-revid="${c.revId}"`);
      return line ? `${line}\n${c.author}` : '';
    },
  },
];

for (const backend of testBackends()) {
  describe(`revision deletion on every read path (${backend})`, () => {
    let wiki: TestWiki;
    const cases: Case[] = [];
    const callers: Caller[] = [];

    before(async () => {
      wiki = await startWiki(backend);
      const env = wiki.testEnv.env;
      await runAdmin(['createAndPromote', 'Supp', 'supppass1234567', '--groups', 'sysop,suppress'], env, quiet);
      await runAdmin(['createAndPromote', 'Sysie', 'sysiepass123456', '--groups', 'sysop'], env, quiet);
      await runAdmin(['createAndPromote', 'Carol', 'carolpass123456'], env, quiet);
      const supp = await loggedIn(wiki, 'Supp', 'supppass1234567');
      const named = [
        ['anonymous', new WikiClient(wiki.baseUrl)],
        ['user', await loggedIn(wiki, 'Carol', 'carolpass123456')],
        ['sysop', await loggedIn(wiki, 'Sysie', 'sysiepass123456')],
        ['suppressor', supp],
      ] as const;
      for (const [name, client] of named) {
        const rights = (await client.api({ action: 'query', meta: 'userinfo', uiprop: 'rights', formatversion: '2' })).json().query.userinfo.rights as string[];
        callers.push({ name, client, rights });
      }
      const post = async (c: typeof supp, form: Record<string, string>) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', token: c.csrf, ...form })).json();
      for (const [i, bits] of BITS.entries()) {
        const n = i + 1;
        const author = `Hiddenauthor${'ABCDEFGHIJ'[i]}`;
        await runAdmin(['createAndPromote', author, 'authorpass123456'], env, quiet);
        const writer = await loggedIn(wiki, author, 'authorpass123456');
        const page = `Secret ${n}`;
        const c = { n, bits, page, author } as Case;
        const first = await post(writer, { action: 'edit', title: page, text: `''${markers(c)[TEXT]}''`, summary: markers(c)[COMMENT] });
        const second = await post(supp, { action: 'edit', title: page, text: `public ${n}`, summary: 'public' });
        c.revId = first.edit.newrevid;
        c.nextRevId = second.edit.newrevid;
        const hide = FIELDS.filter((f) => bits & f).map((f) => ({ [TEXT]: 'content', [COMMENT]: 'comment', [USER]: 'user' })[f]);
        const hid = await post(supp, { action: 'revisiondelete', type: 'revision', ids: String(c.revId), hide: hide.join('|'), ...(bits & SUPPRESSED ? { suppress: 'yes' } : {}), reason: 'hidden' });
        assert.equal(hid.revisiondelete?.items?.[0]?.status, 'Success', JSON.stringify(hid));
        cases.push(c);
      }
    });
    after(() => wiki?.close());

    for (const path of PATHS) {
      test(path.name, async () => {
        const failures: string[] = [];
        for (const c of cases) {
          for (const caller of callers) {
            const answer = await path.read(c, caller);
            const gated = path.gate !== undefined && !maySee(c.bits, path.gate.field, caller.rights, path.gate.audience);
            const visible: Record<string, boolean> = {};
            for (const field of FIELDS) {
              const audience = field === TEXT ? (path.textAudience ?? 'user') : 'user';
              const expected = path.shows.includes(field) && !gated && maySee(c.bits, field, caller.rights, audience);
              visible[FIELD_NAMES[field]] = expected;
              const marker = field === TEXT && path.textMarker ? path.textMarker(c) : markers(c)[field];
              if (answer.includes(marker) !== expected) {
                failures.push(`bits ${c.bits} (r${c.revId}), ${caller.name}: ${FIELD_NAMES[field]} ${expected ? 'missing' : 'shown'}`);
              }
            }
            try {
              path.check?.({ c, caller, answer, visible });
            } catch (e) {
              failures.push(`bits ${c.bits} (r${c.revId}), ${caller.name}: ${(e as Error).message}`);
            }
          }
        }
        assert.deepEqual(failures, []);
      });
    }

    test('the revisions stay hidden: the reads changed nothing', async () => {
      const supp = callers.find((c) => c.name === 'suppressor')!;
      const r = (await supp.client.api({ action: 'query', prop: 'revisions', revids: cases.map((c) => c.revId).join('|'), rvprop: 'ids', formatversion: '2' })).json();
      assert.equal(r.query.pages.length, cases.length);
      for (const c of cases) {
        const rc = (await supp.client.api({ action: 'query', list: 'recentchanges', rcprop: 'ids|user|comment', rclimit: '500', formatversion: '2' })).json();
        const row = rc.query.recentchanges.find((x: { revid: number }) => x.revid === c.revId);
        assert.equal(row.userhidden === true, (c.bits & USER) !== 0);
      }
    });
  });
}
