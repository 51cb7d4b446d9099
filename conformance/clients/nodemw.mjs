/*
 * A full bot workflow with nodemw (npm), through its own methods wherever it has one; the calls
 * it lacks (clientlogin, logout, base timestamps) go through its raw `api.call`, as its users do.
 */
import { promisify } from 'node:util';
import Bot from 'nodemw';
import { BULK_COUNT, BULK_PREFIX, bulkTitle, check, equal, eventually, inParallel, runId, runSteps, sleep, uniquePng, wiki } from './_workflow.mjs';

const url = new URL(wiki.url);
const config = { protocol: url.protocol.replace(':', ''), server: url.hostname, port: url.port, path: '/w', userAgent: 'quire-conformance (nodemw)', concurrency: 4 };
const bot = new Bot(config);
const human = new Bot(config);
const anonymous = new Bot(config);

/** nodemw's callbacks as promises: (err, a, b, raw) → a (or all of them with `all`). */
const call = (client, params, method) => new Promise((resolve, reject) => client.api.call(params, (err, data, next, raw) => (err ? reject(err) : resolve({ data, next, raw })), method));
const p = (client, name) => promisify(client[name].bind(client));

const page = `Conformance nodemw ${runId}`;
const moved = `Conformance nodemw moved ${runId}`;
const conflictPage = `${page}/conflict`;
const file = `Conformance nodemw ${runId}.png`;

const pageOf = async (title, extra = {}) => Object.values((await call(bot, { action: 'query', titles: title, ...extra })).data.pages)[0];
const whoami = async (client) => (await call(client, { action: 'query', meta: 'userinfo' })).data.userinfo;

await runSteps('nodemw', [
  [
    'login with a bot password',
    async () => {
      const r = await p(bot, 'logIn')(wiki.botUser, wiki.botPassword);
      equal(r.result, 'Success', 'login result');
      equal((await p(bot, 'whoami')()).name, wiki.user, 'whoami after login');
      return `logged in as ${r.lgusername}`;
    },
  ],
  [
    'clientlogin with the main password',
    async () => {
      const token = (await call(human, { action: 'query', meta: 'tokens', type: 'login' })).data.tokens.logintoken;
      const r = (await call(human, { action: 'clientlogin', username: wiki.user, password: wiki.password, logintoken: token, loginreturnurl: wiki.url }, 'POST')).data;
      equal(r.status, 'PASS', 'clientlogin status');
      equal((await whoami(human)).name, wiki.user, 'userinfo after clientlogin');
      return `status PASS as ${r.username}`;
    },
  ],
  [
    'siteinfo and version',
    async () => {
      const version = await p(bot, 'getMediaWikiVersion')();
      check(/^1\.39\./.test(version), `version ${version}`);
      const info = await p(bot, 'getSiteInfo')(['general', 'namespaces']);
      equal(info.namespaces['6']?.canonical, 'File', 'canonical name of namespace 6');
      return `MediaWiki ${version}`;
    },
  ],
  [
    'edit and read back',
    async () => {
      const r = await p(bot, 'edit')(page, `Created by nodemw, run ${runId}`, 'conformance: create', false);
      equal(r.result, 'Success', 'edit result');
      equal(await p(bot, 'getArticle')(page), `Created by nodemw, run ${runId}`, 'content read back');
      const r2 = await p(bot, 'append')(page, '\n\nappended line', 'conformance: append');
      check(r2.newrevid > r.newrevid, 'the append made no new revision');
      equal(await p(bot, 'getArticle')(page), `Created by nodemw, run ${runId}\n\nappended line`, 'appended content read back');
      return `revisions ${r.newrevid} → ${r2.newrevid}`;
    },
  ],
  [
    'edit conflict',
    async () => {
      await p(bot, 'edit')(conflictPage, 'alpha\nbeta\ngamma', 'conformance: base', false);
      const base = (await pageOf(conflictPage, { prop: 'revisions', rvprop: 'timestamp|ids' })).revisions[0];
      await sleep(1100); // edit times have a resolution of one second
      await p(anonymous, 'edit')(conflictPage, 'alpha\nbeta changed by someone else\ngamma', 'conformance: interfering edit', false);
      let error;
      try {
        await p(bot, 'doEdit')('edit', conflictPage, 'conformance: conflicting edit', { text: 'alpha\nbeta changed by the bot\ngamma', basetimestamp: base.timestamp });
      } catch (e) {
        error = e;
      }
      check(/: Edit conflict\.$/.test(error?.message ?? ''), `expected the edit conflict error, got ${error?.message ?? 'success'}`);
      equal(await p(bot, 'getArticle')(conflictPage), 'alpha\nbeta changed by someone else\ngamma', 'content after the refused edit');
      return error.message;
    },
  ],
  [
    'upload',
    async () => {
      const png = uniquePng();
      const r = await p(bot, 'upload')(file, png, { comment: 'conformance: upload', text: `Uploaded by nodemw ${runId}` });
      equal(r.result, 'Success', 'upload result');
      const info = await p(bot, 'getImageInfo')(`File:${file}`);
      equal(info?.size, png.length, 'uploaded size');
      return `${info.size} bytes at ${info.url}`;
    },
  ],
  [
    'move',
    async () => {
      const r = await p(bot, 'move')(page, moved, 'conformance: move');
      equal(r.to, moved, 'move result "to"');
      equal(await p(bot, 'getArticle')(moved), `Created by nodemw, run ${runId}\n\nappended line`, 'content under the new name');
      const old = await pageOf(page, { prop: 'info' });
      check(old.redirect === '', `the old title is not a redirect (${JSON.stringify(old)})`);
      const [content, redirect] = await new Promise((resolve, reject) => bot.getArticle(page, true, (err, c, r) => (err ? reject(err) : resolve([c, r]))));
      equal(redirect?.to, moved, 'the old title redirects to');
      check(content.includes('appended line'), 'following the redirect did not read the moved page');
      return `${page} → ${moved}`;
    },
  ],
  [
    'delete as sysop',
    async () => {
      const r = await p(bot, 'delete')(moved, 'conformance: delete');
      equal(r.title, moved, 'deleted title');
      const gone = await pageOf(moved);
      check(gone.missing === '', `deleted page still there (${JSON.stringify(gone)})`);
      return `log ${r.logid}`;
    },
  ],
  [
    'search',
    async () => {
      const word = `searchword${runId}`;
      await p(bot, 'edit')(conflictPage, `alpha\nbeta\ngamma ${word}`, 'conformance: searchable', false);
      // nodemw's search() uses the default srwhat, a title search on MediaWiki's SQL engines.
      const titleHits = await eventually(async () => {
        const hits = await p(bot, 'search')(`nodemw ${runId}`);
        return hits.some((h) => h.title === conflictPage) ? hits : null;
      }, `title search for "nodemw ${runId}" did not find ${conflictPage}`);
      await eventually(async () => {
        const { data } = await call(bot, { action: 'query', list: 'search', srsearch: word, srwhat: 'text' });
        return data.search.some((h) => h.title === conflictPage);
      }, `text search for ${word} did not find ${conflictPage}`);
      return `${titleHits.length} title hit(s), found by text too`;
    },
  ],
  [
    'list continued past 500 items',
    async () => {
      const list = () =>
        new Promise((resolve, reject) =>
          bot.getAll({ action: 'query', list: 'allpages', apprefix: BULK_PREFIX, aplimit: 500 }, 'allpages', (err, r) => (err ? reject(err) : resolve(r.map((x) => x.title)))),
        );
      let titles = await list();
      if (titles.length < BULK_COUNT) {
        const have = new Set(titles);
        const missing = Array.from({ length: BULK_COUNT }, (_, i) => bulkTitle(i)).filter((t) => !have.has(t));
        await inParallel(missing, 4, (t) => p(bot, 'edit')(t, `Page ${t} for the list continuation step.`, 'conformance: bulk', false));
        titles = await list();
      }
      const distinct = new Set(titles);
      equal(distinct.size, titles.length, 'distinct titles (a repeated title means a broken continuation)');
      check(distinct.size >= BULK_COUNT, `listed ${distinct.size} pages, want at least ${BULK_COUNT}`);
      return `${distinct.size} distinct pages`;
    },
  ],
  [
    'logout',
    async () => {
      const token = await p(bot, 'getToken')(page, 'csrf');
      await call(bot, { action: 'logout', token }, 'POST');
      const me = await whoami(bot);
      check(me.anon === '' && me.id === 0, `still logged in after logout (${JSON.stringify(me)})`);
      return 'anonymous afterwards';
    },
  ],
]);
