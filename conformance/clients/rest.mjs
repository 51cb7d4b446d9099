/*
 * The REST API (/w/rest.php/v1) from a plain HTTP client (fetch): a session from a bot-password
 * login, create, update with latest.id, an edit conflict, history paging, compare, search and a
 * conditional GET answered 304.
 */
import { apiUrl, check, equal, eventually, restUrl, runId, runSteps, wiki } from './_workflow.mjs';

/** fetch with a cookie jar, as a browser or a bot's HTTP library keeps one. */
class Session {
  cookies = new Map();

  async fetch(url, init = {}) {
    const headers = new Headers(init.headers);
    headers.set('User-Agent', 'quire-conformance (plain fetch)');
    if (this.cookies.size) headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const r = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of r.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()];
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()));
      if (expired || value === 'deleted') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return r;
  }

  async api(params, method = 'GET') {
    const body = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
    const r = method === 'GET' ? await this.fetch(`${apiUrl}?${body}`) : await this.fetch(apiUrl, { method: 'POST', body });
    equal(r.status, 200, `HTTP status of action=${params.action}`);
    return r.json();
  }

  async rest(method, path, body, headers = {}) {
    const r = await this.fetch(path.startsWith('http') ? path : `${restUrl}${path}`, {
      method,
      headers: body ? { 'Content-Type': 'application/json', ...headers } : headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: r.status, headers: r.headers, json, text };
  }
}

const bot = new Session();
const anonymous = new Session();
let csrf = '';
const title = `Conformance REST ${runId}`;
const key = encodeURIComponent(title.replaceAll(' ', '_'));
const word = `restword${runId}`;
let latest = 0;
const revisions = [];

function expectStatus(r, status, what) {
  check(r.status === status, `${what}: HTTP ${r.status}, want ${status}: ${r.text.slice(0, 300)}`);
}

await runSteps('REST (fetch)', [
  [
    'login with a bot password',
    async () => {
      const token = (await bot.api({ action: 'query', meta: 'tokens', type: 'login' })).query.tokens.logintoken;
      const login = (await bot.api({ action: 'login', lgname: wiki.botUser, lgpassword: wiki.botPassword, lgtoken: token }, 'POST')).login;
      equal(login.result, 'Success', 'login result');
      csrf = (await bot.api({ action: 'query', meta: 'tokens' })).query.tokens.csrftoken;
      check(csrf && csrf !== '+\\', 'no CSRF token for the session');
      return `session of ${login.lgusername}`;
    },
  ],
  [
    'create (PUT without latest)',
    async () => {
      const r = await bot.rest('PUT', `/v1/page/${key}`, { source: `Created over REST. ${word}`, comment: 'conformance: create', token: csrf });
      expectStatus(r, 201, 'create');
      equal(r.json.title, title, 'title of the created page');
      equal(r.json.source, `Created over REST. ${word}`, 'source in the answer');
      latest = r.json.latest.id;
      revisions.push(latest);
      const read = await bot.rest('GET', `/v1/page/${key}`);
      expectStatus(read, 200, 'read back');
      equal(read.json.source, `Created over REST. ${word}`, 'source read back');
      equal(read.json.latest.id, latest, 'latest.id read back');
      return `revision ${latest}`;
    },
  ],
  [
    'update with latest.id',
    async () => {
      const r = await bot.rest('PUT', `/v1/page/${key}`, { source: `alpha\nbeta\ngamma ${word}`, comment: 'conformance: update', latest: { id: latest }, token: csrf });
      expectStatus(r, 200, 'update');
      check(r.json.latest.id > latest, `no new revision (${r.json.latest.id})`);
      latest = r.json.latest.id;
      revisions.push(latest);
      equal((await bot.rest('GET', `/v1/page/${key}`)).json.source, `alpha\nbeta\ngamma ${word}`, 'source read back');
      return `revision ${latest}`;
    },
  ],
  [
    'edit conflict (409)',
    async () => {
      const base = latest;
      // Another editor (anonymous: its token is the constant one) changes line two first.
      const theirs = await anonymous.rest('PUT', `/v1/page/${key}`, {
        source: `alpha\nbeta changed by someone else\ngamma ${word}`,
        comment: 'conformance: interfering edit',
        latest: { id: base },
        token: '+\\',
      });
      expectStatus(theirs, 200, 'the interfering edit');
      latest = theirs.json.latest.id;
      revisions.push(latest);
      const mine = await bot.rest('PUT', `/v1/page/${key}`, { source: `alpha\nbeta changed by the bot\ngamma ${word}`, comment: 'conformance: conflicting edit', latest: { id: base }, token: csrf });
      expectStatus(mine, 409, 'the conflicting edit');
      equal(mine.json?.httpCode, 409, 'httpCode in the error body');
      check(Array.isArray(mine.json?.messageTranslations) || typeof mine.json?.messageTranslations === 'object', 'no messageTranslations in the error body');
      equal((await bot.rest('GET', `/v1/page/${key}`)).json.latest.id, latest, 'latest after the refused edit');
      return `${mine.status} ${mine.json.httpReason}`;
    },
  ],
  [
    'history paging',
    async () => {
      // 20 revisions make a page of history: make enough for two.
      while (revisions.length < 23) {
        const r = await bot.rest('PUT', `/v1/page/${key}`, {
          source: `alpha\nbeta\ngamma ${word}\nedit ${revisions.length}`,
          comment: `conformance: edit ${revisions.length}`,
          latest: { id: latest },
          token: csrf,
        });
        expectStatus(r, 200, `edit ${revisions.length}`);
        latest = r.json.latest.id;
        revisions.push(latest);
      }
      const seen = [];
      let url = `/v1/page/${key}/history`;
      let pages = 0;
      while (url) {
        const r = await bot.rest('GET', url);
        expectStatus(r, 200, `history page ${pages + 1}`);
        pages++;
        check(r.json.revisions.length <= 20, `${r.json.revisions.length} revisions in one page`);
        seen.push(...r.json.revisions.map((rev) => rev.id));
        url = r.json.older;
        check(pages < 10, 'history paging does not end');
      }
      equal(pages, 2, 'history pages');
      equal(JSON.stringify(seen), JSON.stringify([...revisions].sort((a, b) => b - a)), 'revision ids over the pages, newest first');
      return `${seen.length} revisions in ${pages} pages`;
    },
  ],
  [
    'compare',
    async () => {
      const [from, to] = [revisions[1], revisions[2]];
      const r = await bot.rest('GET', `/v1/revision/${from}/compare/${to}`);
      expectStatus(r, 200, 'compare');
      equal(r.json.from?.id, from, 'from.id');
      equal(r.json.to?.id, to, 'to.id');
      check(
        Array.isArray(r.json.diff) && r.json.diff.some((line) => line.type !== 0 && /someone else/.test(line.text)),
        `the diff does not show the changed line: ${JSON.stringify(r.json.diff)?.slice(0, 300)}`,
      );
      return `${r.json.diff.length} diff lines`;
    },
  ],
  [
    'search',
    async () => {
      const hits = await eventually(async () => {
        const r = await bot.rest('GET', `/v1/search/page?q=${encodeURIComponent(word)}&limit=10`);
        expectStatus(r, 200, 'search');
        return r.json.pages.some((p) => p.key === title.replaceAll(' ', '_')) ? r.json.pages : null;
      }, `search for ${word} did not find ${title}`);
      return `${hits.length} hit(s)`;
    },
  ],
  [
    'If-None-Match answered 304',
    async () => {
      const first = await bot.rest('GET', `/v1/page/${key}`);
      expectStatus(first, 200, 'GET');
      const etag = first.headers.get('etag');
      check(etag, 'no ETag');
      const again = await bot.rest('GET', `/v1/page/${key}`, undefined, { 'If-None-Match': etag });
      expectStatus(again, 304, 'conditional GET');
      equal(again.text, '', 'body of the 304');
      const changed = await bot.rest('PUT', `/v1/page/${key}`, { source: `changed after the ETag ${word}`, comment: 'conformance: change', latest: { id: latest }, token: csrf });
      expectStatus(changed, 200, 'edit');
      const stale = await bot.rest('GET', `/v1/page/${key}`, undefined, { 'If-None-Match': etag });
      expectStatus(stale, 200, 'conditional GET after an edit');
      return `ETag ${etag}`;
    },
  ],
]);
