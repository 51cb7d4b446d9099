/*
 * Who may change which title, on every write path (PermissionManager::checkSiteConfigPermissions,
 * checkUserConfigPermissions and the namespace protection of MediaWiki:): another user's CSS, JSON
 * and JavaScript need editusercss/edituserjson/edituserjs, the site's need editinterface and
 * editsitecss/editsitejson/editsitejs — for edits, moves (from and to), content model changes,
 * rollback and undeletion. The expected answers are computed from each caller's rights
 * (meta=userinfo), and every refusal leaves the page as it was.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, type TestWiki } from './harness.js';
import { loggedIn } from './files-helpers.js';

const quiet = () => undefined;
type Client = Awaited<ReturnType<typeof loggedIn>>;
interface Caller {
  name: string;
  client: Client;
  rights: string[];
}

const KINDS = [
  { ext: 'css', kind: 'css' },
  { ext: 'js', kind: 'js' },
  { ext: 'json', kind: 'json' },
] as const;
const TEXT_OF: Record<string, string> = { css: 'body { color: red; }', js: 'var owner = 1;', json: '{"owner": 1}' };

const post = async (c: Client, form: Record<string, string>) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', token: c.csrf, ...form })).json();
const latestText = async (c: Client, title: string) =>
  (await c.api({ action: 'query', prop: 'revisions', titles: title, rvprop: 'content', rvslots: 'main', formatversion: '2' })).json().query.pages[0].revisions?.[0]?.slots.main.content as
    | string
    | undefined;

for (const backend of testBackends()) {
  describe(`user and site CSS/JSON/JS on every write path (${backend})`, () => {
    let wiki: TestWiki;
    const callers = new Map<string, Caller>();
    const caller = (name: string) => callers.get(name)!;

    before(async () => {
      wiki = await startWiki(backend);
      const env = wiki.testEnv.env;
      const accounts: [string, string[]][] = [
        ['Owner', []],
        ['Carol', []],
        ['Sysie', ['sysop']],
        ['Iface', ['interface-admin']],
      ];
      for (const [name, groups] of accounts) {
        await runAdmin(['createAndPromote', name, `${name.toLowerCase()}pass123456`, ...(groups.length ? ['--groups', groups.join(',')] : [])], env, quiet);
        const client = await loggedIn(wiki, name, `${name.toLowerCase()}pass123456`);
        const rights = (await client.api({ action: 'query', meta: 'userinfo', uiprop: 'rights', formatversion: '2' })).json().query.userinfo.rights as string[];
        callers.set(name, { name, client, rights });
      }
      for (const { ext } of KINDS) {
        for (const skin of ['common', 'vector']) {
          const r = await post(caller('Owner').client, { action: 'edit', title: `User:Owner/${skin}.${ext}`, text: TEXT_OF[ext]! });
          assert.equal(r.edit?.result, 'Success', JSON.stringify(r));
        }
      }
    });
    after(() => wiki?.close());

    test("action=edit of another user's CSS/JSON/JS: customcssprotected… unless edituser*; the owner may", async () => {
      const failures: string[] = [];
      for (const { ext, kind } of KINDS) {
        for (const skin of ['common', 'vector']) {
          for (const c of callers.values()) {
            const title = `User:Owner/${skin}.${ext}`;
            const before = await latestText(c.client, title);
            const text = ext === 'json' ? `{"by": "${c.name}"}` : `/* by ${c.name} */`;
            const r = await post(c.client, { action: 'edit', title, text });
            const allowed = c.name === 'Owner' || c.rights.includes(`edituser${kind}`);
            const got = r.error?.code ?? r.edit?.result;
            const want = allowed ? 'Success' : `custom${kind}protected`;
            if (got !== want) failures.push(`${c.name} editing ${title}: ${got}, expected ${want}`);
            const after = await latestText(c.client, title);
            if (!allowed && after !== before) failures.push(`${c.name} editing ${title}: the page changed`);
          }
        }
      }
      assert.deepEqual(failures, []);
      const refused = await post(caller('Carol').client, { action: 'edit', title: 'User:Owner/common.js', text: 'alert(1)' });
      assert.equal(refused.error.info, "You do not have permission to edit this JavaScript page because it contains another user's personal settings.");
      // What action=raw serves as the owner's script is still the owner's (or an allowed editor's).
      const raw = await caller('Carol').client.get('/w/index.php?title=User:Owner/common.js&action=raw&ctype=text/javascript');
      assert.ok(!raw.text.includes('alert(1)'));
    });

    test('action=edit of MediaWiki: pages: editinterface, and editsitecss/editsitejson/editsitejs for CSS/JSON/JS', async () => {
      const failures: string[] = [];
      for (const { ext, kind } of KINDS) {
        for (const c of callers.values()) {
          const title = `MediaWiki:Common.${ext}`;
          const before = await latestText(c.client, title);
          const r = await post(c.client, { action: 'edit', title, text: ext === 'json' ? '{}' : `/* ${c.name} */` });
          const want = !c.rights.includes('editinterface') ? 'protectednamespace-interface' : !c.rights.includes(`editsite${kind}`) ? `site${kind}protected` : 'Success';
          const got = r.error?.code ?? r.edit?.result;
          if (got !== want) failures.push(`${c.name} editing ${title}: ${got}, expected ${want}`);
          if (want !== 'Success' && (await latestText(c.client, title)) !== before) failures.push(`${c.name} editing ${title}: the page changed`);
        }
      }
      assert.deepEqual(failures, []);
    });

    test("action=move: neither from nor to another user's JavaScript", async () => {
      const carol = caller('Carol').client;
      assert.equal((await post(carol, { action: 'edit', title: 'User:Carol/tool.js', text: 'var mine = 1;' })).edit.result, 'Success');
      const to = await post(carol, { action: 'move', from: 'User:Carol/tool.js', to: 'User:Owner/tool.js', noredirect: '1' });
      assert.equal(to.error?.code, 'customjsprotected', JSON.stringify(to));
      assert.equal(await latestText(carol, 'User:Owner/tool.js'), undefined, 'nothing at the target');
      assert.equal(await latestText(carol, 'User:Carol/tool.js'), 'var mine = 1;', 'the page stays');
      const from = await post(carol, { action: 'move', from: 'User:Owner/common.js', to: 'User:Carol/stolen.js' });
      assert.equal(from.error?.code, 'customjsprotected', JSON.stringify(from));
      assert.equal(await latestText(carol, 'User:Carol/stolen.js'), undefined);
      // A wikitext page moved to a name that makes it another user's script.
      assert.equal((await post(carol, { action: 'edit', title: 'User:Carol/notes', text: 'notes' })).edit.result, 'Success');
      const renamed = await post(carol, { action: 'move', from: 'User:Carol/notes', to: 'User:Owner/notes.css' });
      assert.equal(renamed.error?.code, 'customcssprotected', JSON.stringify(renamed));
      // And into MediaWiki: without editinterface.
      const iface = await post(carol, { action: 'move', from: 'User:Carol/notes', to: 'MediaWiki:Notes' });
      assert.equal(iface.error?.code, 'protectednamespace-interface', JSON.stringify(iface));
    });

    test("action=changecontentmodel: another user's page made JavaScript is refused", async () => {
      const owner = caller('Owner').client;
      assert.equal((await post(owner, { action: 'edit', title: 'User:Owner/plain', text: 'var x = 1;' })).edit.result, 'Success');
      const carol = caller('Carol').client;
      const r = await post(carol, { action: 'changecontentmodel', title: 'User:Owner/plain', model: 'javascript' });
      assert.equal(r.error?.code, 'customjsprotected', JSON.stringify(r));
      const model = (await carol.api({ action: 'query', prop: 'info', titles: 'User:Owner/plain', formatversion: '2' })).json().query.pages[0].contentmodel;
      assert.equal(model, 'wikitext', 'the model is unchanged');
      // Through action=edit with contentmodel= too.
      const viaEdit = await post(carol, { action: 'edit', title: 'User:Owner/plain', text: 'var y = 2;', contentmodel: 'javascript' });
      assert.equal(viaEdit.error?.code, 'customjsprotected', JSON.stringify(viaEdit));
      assert.equal(await latestText(carol, 'User:Owner/plain'), 'var x = 1;');
    });

    test("action=rollback and action=undelete of another user's CSS need editusercss", async () => {
      const iface = caller('Iface').client;
      const sysop = caller('Sysie').client;
      assert.equal((await post(iface, { action: 'edit', title: 'User:Owner/rb.css', text: 'a { }' })).edit.result, 'Success');
      assert.equal((await post(caller('Owner').client, { action: 'edit', title: 'User:Owner/rb.css', text: 'b { }' })).edit.result, 'Success');
      const rollbackToken = (await sysop.api({ action: 'query', meta: 'tokens', type: 'rollback', formatversion: '2' })).json().query.tokens.rollbacktoken;
      const rb = await post(sysop, { action: 'rollback', title: 'User:Owner/rb.css', user: 'Owner', token: rollbackToken });
      assert.equal(rb.error?.code, 'customcssprotected', JSON.stringify(rb));
      assert.equal(await latestText(sysop, 'User:Owner/rb.css'), 'b { }');

      // Deletion is left alone (an abusive subpage must be removable); restoring it is an edit of it.
      assert.ok((await post(sysop, { action: 'delete', title: 'User:Owner/rb.css' })).delete);
      const un = await post(sysop, { action: 'undelete', title: 'User:Owner/rb.css' });
      assert.equal(un.error?.code, 'customcssprotected', JSON.stringify(un));
      assert.equal(await latestText(sysop, 'User:Owner/rb.css'), undefined, 'still deleted');
    });

    test('a partial block covers moves (from and to) and content model changes of its pages, as edits', async () => {
      await runAdmin(['createAndPromote', 'Eve', 'evepass1234567'], wiki.testEnv.env, quiet);
      const eve = await loggedIn(wiki, 'Eve', 'evepass1234567');
      const sysop = caller('Sysie').client;
      assert.equal((await post(sysop, { action: 'edit', title: 'Guarded page', text: 'guarded' })).edit.result, 'Success');
      assert.equal((await post(eve, { action: 'edit', title: 'User:Eve/draft', text: 'draft' })).edit.result, 'Success');
      const block = await post(sysop, { action: 'block', user: 'Eve', partial: '1', pagerestrictions: 'Guarded page', namespacerestrictions: '10', expiry: 'infinite', allowusertalk: '1' });
      assert.ok(block.block, JSON.stringify(block));

      const refusals = {
        edit: await post(eve, { action: 'edit', title: 'Guarded page', text: 'vandal' }),
        moveFrom: await post(eve, { action: 'move', from: 'Guarded page', to: 'Elsewhere' }),
        moveTo: await post(eve, { action: 'move', from: 'User:Eve/draft', to: 'Template:Draft' }),
        changecontentmodel: await post(eve, { action: 'changecontentmodel', title: 'Guarded page', model: 'text' }),
      };
      for (const [what, r] of Object.entries(refusals)) {
        assert.equal(r.error?.code, 'blocked', `${what}: ${JSON.stringify(r)}`);
        assert.equal(r.error?.info, 'You have been blocked from editing this page.', what);
        assert.equal(r.error?.blockinfo?.blockpartial, true, what);
      }
      // Nothing changed: the page, its model, and both titles of the refused moves.
      const info = (await eve.api({ action: 'query', prop: 'info', titles: 'Guarded page|Elsewhere|Template:Draft|User:Eve/draft', formatversion: '2' })).json().query.pages;
      const byTitle = Object.fromEntries(info.map((pg: { title: string; missing?: boolean; contentmodel: string }) => [pg.title, pg]));
      assert.equal(byTitle['Guarded page'].contentmodel, 'wikitext');
      assert.equal(byTitle.Elsewhere.missing, true);
      assert.equal(byTitle['Template:Draft'].missing, true);
      assert.equal(byTitle['User:Eve/draft'].missing, undefined);
      assert.equal(await latestText(eve, 'Guarded page'), 'guarded');
      // The block is partial: elsewhere Eve writes as before.
      assert.equal((await post(eve, { action: 'move', from: 'User:Eve/draft', to: 'User:Eve/final' })).move?.to, 'User:Eve/final');
    });

    test("a partial block covers a sysop's delete, protect, undelete and history merge of its pages, on the API and the web pages", async () => {
      await runAdmin(['createAndPromote', 'Pam', 'pampass12345678', '--groups', 'sysop'], wiki.testEnv.env, quiet);
      const pam = await loggedIn(wiki, 'Pam', 'pampass12345678');
      const sysop = caller('Sysie').client;
      for (const title of ['Pam guarded', 'Pam free', 'Pam older', 'Template:Pam gone']) {
        assert.equal((await post(sysop, { action: 'edit', title, text: `text of ${title}` })).edit.result, 'Success');
      }
      assert.ok((await post(sysop, { action: 'delete', title: 'Template:Pam gone' })).delete);
      const block = await post(sysop, { action: 'block', user: 'Pam', partial: '1', pagerestrictions: 'Pam guarded', namespacerestrictions: '10', expiry: 'infinite', allowusertalk: '1' });
      assert.ok(block.block, JSON.stringify(block));

      const refusals = {
        delete: await post(pam, { action: 'delete', title: 'Pam guarded' }),
        protect: await post(pam, { action: 'protect', title: 'Pam guarded', protections: 'edit=sysop', expiry: 'infinite' }),
        undelete: await post(pam, { action: 'undelete', title: 'Template:Pam gone' }),
        mergehistory: await post(pam, { action: 'mergehistory', from: 'Pam older', to: 'Pam guarded' }),
      };
      for (const [what, r] of Object.entries(refusals)) {
        assert.equal(r.error?.code, 'blocked', `${what}: ${JSON.stringify(r)}`);
        assert.equal(r.error?.blockinfo?.blockpartial, true, what);
      }
      // The web pages refuse the same, before any form.
      const webDelete = await pam.get('/w/index.php?title=Pam_guarded&action=delete');
      assert.equal(webDelete.status, 403);
      assert.match(webDelete.text, /You are blocked from performing this action/);
      const webProtect = await pam.get('/w/index.php?title=Pam_guarded&action=protect');
      assert.match(webProtect.text, /View protection of/, 'the protection form is read-only');
      const webUndelete = await pam.post('/wiki/Special:Undelete/Template:Pam_gone', { wpEditToken: pam.csrf, target: 'Template:Pam gone', restore: '1', wpComment: 'x' });
      assert.match(webUndelete.text, /You are blocked from performing this action/);

      // Nothing changed: the page is there and unprotected, the template still deleted, the older page's history unmerged.
      assert.equal(await latestText(pam, 'Pam guarded'), 'text of Pam guarded');
      const info = (await pam.api({ action: 'query', prop: 'info', inprop: 'protection', titles: 'Pam guarded|Template:Pam gone|Pam older', formatversion: '2' })).json().query.pages;
      const byTitle = Object.fromEntries(info.map((pg: { title: string }) => [pg.title, pg]));
      assert.deepEqual(byTitle['Pam guarded'].protection, []);
      assert.equal(byTitle['Template:Pam gone'].missing, true);
      assert.equal(await latestText(pam, 'Pam older'), 'text of Pam older');
      // Elsewhere Pam acts as before.
      assert.ok((await post(pam, { action: 'delete', title: 'Pam free' })).delete, 'a page the block does not name');
    });
  });
}
