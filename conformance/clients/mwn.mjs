/*
 * A full bot workflow with mwn (npm), the way a Toolforge bot uses it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Mwn } from 'mwn';
import { apiUrl, BULK_COUNT, BULK_PREFIX, bulkTitle, check, equal, eventually, inParallel, runId, runSteps, sleep, uniquePng, wiki } from './_workflow.mjs';

const options = { apiUrl, silent: true, userAgent: 'quire-conformance (mwn)' };
const bot = new Mwn({ ...options, username: wiki.botUser, password: wiki.botPassword });
const human = new Mwn(options);
const anonymous = new Mwn(options);

const page = `Conformance mwn ${runId}`;
const moved = `Conformance mwn moved ${runId}`;
const file = `Conformance mwn ${runId}.png`;
let conflictPage = '';

const userinfo = async (client) => (await client.request({ action: 'query', meta: 'userinfo' })).query.userinfo;
const pageInfo = async (title) => (await bot.request({ action: 'query', titles: title, prop: 'info', formatversion: 2 })).query.pages[0];

await runSteps('mwn', [
  [
    'login with a bot password',
    async () => {
      await bot.login();
      const me = await userinfo(bot);
      equal(me.name, wiki.user, 'userinfo name after login');
      check(!me.anon, 'still anonymous after login');
      return `logged in as ${me.name}`;
    },
  ],
  [
    'clientlogin with the main password',
    async () => {
      const token = (await human.request({ action: 'query', meta: 'tokens', type: 'login' })).query.tokens.logintoken;
      const r = await human.request({ action: 'clientlogin', username: wiki.user, password: wiki.password, logintoken: token, loginreturnurl: wiki.url });
      equal(r.clientlogin.status, 'PASS', 'clientlogin status');
      equal((await userinfo(human)).name, wiki.user, 'userinfo name after clientlogin');
      await human.getTokens();
      check(human.csrfToken && human.csrfToken !== '+\\', 'no CSRF token for the logged-in session');
      return `status PASS as ${r.clientlogin.username}`;
    },
  ],
  [
    'siteinfo and version',
    async () => {
      await bot.getSiteInfo();
      const general = (await bot.request({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces' })).query.general;
      check(/^MediaWiki 1\.39\./.test(general.generator), `generator ${general.generator}`);
      check(bot.title.nameIdMap?.file === 6, 'mwn did not learn the namespaces');
      return general.generator;
    },
  ],
  [
    'edit and read back',
    async () => {
      const r = await bot.create(page, `Created by mwn, run ${runId}\n\nline two`, 'conformance: create');
      equal(r.result, 'Success', 'edit result');
      const read = await bot.read(page);
      equal(read.revisions[0].content, `Created by mwn, run ${runId}\n\nline two`, 'content read back');
      const r2 = await bot.save(page, `Edited by mwn, run ${runId}\n\nline two`, 'conformance: edit');
      check(r2.newrevid > r.newrevid, `second edit made no new revision (${JSON.stringify(r2)})`);
      const again = await bot.read(page);
      equal(again.revisions[0].content, `Edited by mwn, run ${runId}\n\nline two`, 'edited content read back');
      return `revisions ${r.newrevid} → ${r2.newrevid}`;
    },
  ],
  [
    'edit conflict',
    async () => {
      conflictPage = `${page}/conflict`;
      await bot.create(conflictPage, 'alpha\nbeta\ngamma', 'conformance: base');
      let error;
      try {
        await bot.edit(
          conflictPage,
          async (rev) => {
            // Another editor (anonymous) changes the same line after the bot read the page. Edit
            // times have a resolution of one second: a later second tells the base apart.
            await sleep(1100);
            await anonymous.getTokens();
            await anonymous.save(conflictPage, 'alpha\nbeta changed by someone else\ngamma', 'conformance: interfering edit');
            return { text: rev.content.replace('beta', 'beta changed by the bot'), summary: 'conformance: conflicting edit' };
          },
          { conflictRetries: 0 },
        );
      } catch (e) {
        error = e;
      }
      equal(error?.code, 'editconflict', 'error code of the conflicting edit');
      const content = (await bot.read(conflictPage)).revisions[0].content;
      equal(content, 'alpha\nbeta changed by someone else\ngamma', 'content after the refused edit');
      return 'editconflict';
    },
  ],
  [
    'upload',
    async () => {
      const png = uniquePng();
      const local = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mwn-')), 'upload.png');
      fs.writeFileSync(local, png);
      const r = await bot.upload(local, file, `Uploaded by mwn ${runId}`, { comment: 'conformance: upload' });
      equal(r.result, 'Success', 'upload result');
      const info = (await bot.request({ action: 'query', titles: `File:${file}`, prop: 'imageinfo', iiprop: 'size|mime|sha1', formatversion: 2 })).query.pages[0].imageinfo?.[0];
      check(info, 'no imageinfo for the uploaded file');
      equal(info.size, png.length, 'uploaded size');
      equal(info.mime, 'image/png', 'uploaded MIME type');
      return `${info.size} bytes, ${info.mime}`;
    },
  ],
  [
    'move',
    async () => {
      const r = await bot.move(page, moved, 'conformance: move');
      equal(r.to, moved, 'move result "to"');
      equal((await bot.read(moved)).revisions[0].content, `Edited by mwn, run ${runId}\n\nline two`, 'content under the new name');
      const old = await pageInfo(page);
      check(old.redirect === true, `the old title is not a redirect (${JSON.stringify(old)})`);
      const resolved = (await bot.request({ action: 'query', titles: page, redirects: 1, formatversion: 2 })).query.redirects?.[0];
      equal(resolved?.to, moved, 'the old title redirects to');
      return `${page} → ${moved}`;
    },
  ],
  [
    'delete as sysop',
    async () => {
      const r = await bot.delete(moved, 'conformance: delete');
      check(r.logid > 0, `no log id in ${JSON.stringify(r)}`);
      const gone = await pageInfo(moved);
      check(gone.missing === true, `deleted page still there (${JSON.stringify(gone)})`);
      return `log ${r.logid}`;
    },
  ],
  [
    'search',
    async () => {
      // The page of the conflict step is still there (the first one was deleted). MediaWiki's
      // default srwhat on its SQL engines is a title search; a bot looks for words: srwhat=text.
      const word = `searchword${runId}`;
      await bot.save(conflictPage, `alpha\nbeta\ngamma ${word}`, 'conformance: searchable');
      const hits = await eventually(async () => {
        const found = await bot.search(word, 10, 'size', { srwhat: 'text' });
        return found.some((h) => h.title === conflictPage) ? found : null;
      }, `search for ${word} did not find ${conflictPage}`);
      return `${hits.length} hit(s)`;
    },
  ],
  [
    'list continued past 500 items',
    async () => {
      const list = async () => {
        const titles = [];
        for await (const r of bot.continuedQueryGen({ action: 'query', list: 'allpages', apprefix: BULK_PREFIX, aplimit: 500 }, 100)) {
          titles.push(...r.query.allpages.map((p) => p.title));
        }
        return titles;
      };
      let titles = await list();
      if (titles.length < BULK_COUNT) {
        const have = new Set(titles);
        const missing = Array.from({ length: BULK_COUNT }, (_, i) => bulkTitle(i)).filter((t) => !have.has(t));
        await inParallel(missing, 4, (t) => bot.save(t, `Page ${t} for the list continuation step.`, 'conformance: bulk'));
        titles = await list();
      }
      const distinct = new Set(titles);
      equal(distinct.size, titles.length, 'distinct titles (a repeated title means a broken continuation)');
      check(distinct.size >= BULK_COUNT, `listed ${distinct.size} pages, want at least ${BULK_COUNT}`);
      return `${distinct.size} distinct pages in ${Math.ceil(distinct.size / 500)} batches`;
    },
  ],
  [
    'logout',
    async () => {
      await bot.logout();
      const me = await userinfo(bot);
      check(me.anon !== undefined && me.id === 0, `still logged in after logout (${JSON.stringify(me)})`);
      return 'anonymous afterwards';
    },
  ],
]);
