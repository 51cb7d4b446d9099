/*
 * action=parse's pre-save transform and summaries: pst, onlypst, summary,
 * headhtml, the revision variables of saved revisions and of text parsed with revid, compared with what MediaWiki 1.39 answers for the same requests.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';

for (const backend of testBackends()) {
  describe(`action=parse pst and summary on ${backend}`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend);
      const r = await wiki.post('/w/api.php', { action: 'edit', title: 'Template:Shout', text: '{{{1}}}!', token: ANON_TOKEN, format: 'json' });
      assert.equal(r.json().edit.result, 'Success');
    });
    after(() => wiki?.close());

    const stamp = /\d\d:\d\d, \d{1,2} [A-Z][a-z]+ \d{4} \(UTC\)/.source;

    test('onlypst: signatures of the caller, subst:, the pipe trick, trailing whitespace; wikitext and parsedsummary', async () => {
      const text =
        '<nowiki>~~~</nowiki> <!-- ~~~ --> Sig ~~~ and ~~~~ and ~~~~~ {{subst:lc:ABC}} {{subst:#if:x|{{subst:uc:y}}|n}} {{subst:Shout|hey}} {{PAGENAME}} [[|Foo]] [[Help:Foo (bar)|]] [[Project:Bar, baz|]] [[w:Foo|]] line  \n\nnext\t\n\n';
      const r = await wiki.post('/w/api.php', {
        action: 'parse',
        onlypst: '1',
        text,
        title: 'Talk:Some page (dab)',
        summary: 'Edit [[Main Page]] /* Sec */ x',
        prop: 'wikitext',
        format: 'json',
        formatversion: '2',
      });
      const parse = r.json().parse;
      assert.deepEqual(Object.keys(parse), ['text', 'wikitext', 'parsedsummary']);
      const ip = '127.0.0.1';
      const sig = `[[Special:Contributions/${ip}|${ip}]]`;
      assert.match(
        parse.text,
        new RegExp(
          `^<nowiki>~~~</nowiki> <!-- ~~~ --> Sig ${esc(sig)} and ${esc(sig)} ${stamp} and ${stamp} abc Y hey! \\{\\{PAGENAME\\}\\} \\[\\[Foo \\(dab\\)\\|Foo\\]\\] \\[\\[Help:Foo \\(bar\\)\\|Foo\\]\\] \\[\\[Project:Bar, baz\\|Bar\\]\\] \\[\\[w:Foo\\|Foo\\]\\] line  \\n\\nnext$`,
        ),
      );
      assert.equal(parse.wikitext, text);
      assert.equal(
        parse.parsedsummary,
        'Edit <a href="/wiki/Main_Page" title="Main Page">Main Page</a> <span dir="auto"><span class="autocomment"><a href="/wiki/Talk:Some_page_(dab)#Sec" title="Talk:Some page (dab)">→\u200eSec</a>: </span> x</span>',
      );
    });

    test('pst parses the transformed text and reports psttext; a logged-in caller signs with the user page', async () => {
      const login = await wiki.post('/w/api.php', { action: 'query', meta: 'tokens', type: 'login', format: 'json' });
      const created = await wiki.post('/w/api.php', {
        action: 'createaccount',
        username: 'Signer',
        password: 'signerpass123456',
        retype: 'signerpass123456',
        createreturnurl: 'http://x/',
        createtoken: (await wiki.api({ action: 'query', meta: 'tokens', type: 'createaccount' })).json().query.tokens.createaccounttoken,
        format: 'json',
      });
      void login;
      assert.equal(created.json().createaccount?.status, 'PASS', created.text);
      const r = await wiki.post('/w/api.php', {
        action: 'parse',
        pst: '1',
        text: 'Hi ~~~',
        prop: 'wikitext|text',
        disablelimitreport: '1',
        contentmodel: 'wikitext',
        format: 'json',
        formatversion: '2',
      });
      const parse = r.json().parse;
      assert.deepEqual(Object.keys(parse), ['title', 'pageid', 'text', 'wikitext', 'psttext']);
      assert.equal(parse.wikitext, 'Hi ~~~');
      assert.equal(parse.psttext, 'Hi [[User:Signer|Signer]] ([[User talk:Signer|talk]])');
      assert.match(
        parse.text,
        /<p>Hi <a href="\/w\/index.php\?title=User:Signer&amp;action=edit&amp;redlink=1" class="new" title="User:Signer \(page does not exist\)">Signer<\/a> \(<a [^>]*title="User talk:Signer \(page does not exist\)">talk<\/a>\)\n<\/p>/,
      );
      // fv1 wraps the strings.
      const fv1 = await wiki.post('/w/api.php', { action: 'parse', pst: '1', text: 'x ~~~~~', prop: 'wikitext', contentmodel: 'wikitext', format: 'json' });
      assert.match(fv1.json().parse.psttext['*'], new RegExp(`^x ${stamp}$`));
    });

    test('contentmodel css and javascript: parsed for links and categories, shown as code; text: escaped only; json: its tables', async () => {
      const text = '[[Foo]]\n[[Category:X]]\n==h==\na & b <\'"> ~~~~';
      const css = (await wiki.api({ action: 'parse', contentmodel: 'css', text, prop: 'text|links|categories|sections', disablelimitreport: '1', formatversion: '2' })).json().parse;
      assert.equal(css.text, '<div class="mw-parser-output"><pre class="mw-code mw-css" dir="ltr">\n[[Foo]]\n[[Category:X]]\n==h==\na &amp; b &lt;\'"> ~~~~\n</pre>\n</div>');
      assert.deepEqual([css.links.map((l: { title: string }) => l.title), css.categories.map((c: { category: string }) => c.category), css.sections], [['Foo'], ['X'], []]);
      const js = (await wiki.api({ action: 'parse', contentmodel: 'javascript', text: 'a<b', prop: 'text', formatversion: '2' })).json().parse;
      assert.match(js.text, /^<div class="mw-parser-output"><pre class="mw-code mw-js" dir="ltr">\na&lt;b\n<\/pre>\n\n<!-- \nNewPP limit report/);
      const plain = (await wiki.api({ action: 'parse', contentmodel: 'text', text, prop: 'text|links', wrapoutputclass: '', formatversion: '2' })).json().parse;
      assert.deepEqual([plain.text, plain.links], ["[[Foo]]\n[[Category:X]]\n==h==\na &amp; b &lt;'&quot;&gt; ~~~~", []]);
      const json = (await wiki.api({ action: 'parse', contentmodel: 'json', text: '{"k<&":[1,"<x>"]}', prop: 'text', formatversion: '2' })).json().parse;
      assert.equal(
        json.text,
        '<div class="mw-parser-output"><table class="mw-json"><tbody><tr><th><span>k&lt;&amp;</span></th><td><table class="mw-json"><tbody><tr><td class="mw-json-value">1</td></tr>\n<tr><td class="mw-json-value">"&lt;x>"</td></tr></tbody></table></td></tr></tbody></table></div>',
      );
      assert.equal((await wiki.api({ action: 'parse', contentmodel: 'unknown', text: '{}', formatversion: '2' })).json().error.code, 'badvalue');
    });

    test('summary alone: parsed with red links and a trailing autocomment; headhtml', async () => {
      const r = await wiki.api({ action: 'parse', summary: 'Some [[link]] /* Sec */', prop: '', formatversion: '2' });
      assert.deepEqual(r.json().parse, {
        title: 'API',
        pageid: 0,
        parsedsummary:
          'Some <a href="/w/index.php?title=Link&amp;action=edit&amp;redlink=1" class="new" title="Link (page does not exist)">link</a> <span dir="auto"><span class="autocomment"><a href="/wiki/API#Sec" title="API">→\u200eSec</a></span></span>',
      });
      const h = await wiki.api({ action: 'parse', page: 'Main Page', prop: 'headhtml', formatversion: '2' });
      const head: string = h.json().parse.headhtml;
      assert.match(head, /^<!DOCTYPE html>\n<html class="client-nojs" lang="en" dir="ltr">\n<head>\n<meta charset="UTF-8"\/>\n<title> - Quire<\/title>/);
      assert.match(head, /<body class="mediawiki ltr sitedir-ltr mw-hide-empty-elt ns-0 ns-subject mw-editable page-Main_Page rootpage-Main_Page skin-vector action-view">$/);
      assert.doesNotMatch(head, /<script/);
    });

    test('{{REVISIONID}}, {{REVISIONUSER}}, {{REVISIONTIMESTAMP}} of a saved revision, and of text parsed with revid', async () => {
      const magic = 'This is {{REVISIONID}} by {{REVISIONUSER}} at {{REVISIONTIMESTAMP}} on {{PAGENAME}}.';
      // The client may be logged in by an earlier test: the author is whoever it is.
      const me = (await wiki.api({ action: 'query', meta: 'userinfo|tokens', formatversion: '2' })).json().query;
      const saved = (await wiki.post('/w/api.php', { action: 'edit', title: 'Rev magic', text: magic, token: me.tokens.csrftoken, format: 'json', formatversion: '2' })).json().edit;
      const stamp = (saved.newtimestamp as string).replace(/[-:TZ]/g, '');
      const expected = `<p>This is ${saved.newrevid} by ${me.userinfo.name} at ${stamp} on Rev magic.\n</p>`;
      const byPage = (await wiki.api({ action: 'parse', page: 'Rev magic', prop: 'text', disablelimitreport: '1', formatversion: '2' })).json().parse;
      assert.ok(byPage.text.includes(expected), byPage.text);
      // ApiParse: text with revid is parsed as that revision of its page, with a warning when the title names another one.
      const viaParams = (await wiki.api({ action: 'parse', title: 'Elsewhere', text: magic, revid: String(saved.newrevid), prop: 'text', disablelimitreport: '1', formatversion: '2' })).json();
      assert.deepEqual([viaParams.parse.title, viaParams.parse.pageid], ['Rev magic', saved.pageid]);
      assert.ok(viaParams.parse.text.includes(expected), viaParams.parse.text);
      assert.deepEqual(viaParams.warnings, { parse: { warnings: `r${saved.newrevid} is not a revision of Elsewhere.` } });
      const plain = (await wiki.api({ action: 'parse', title: 'Rev magic', text: magic, prop: 'text', disablelimitreport: '1', formatversion: '2' })).json().parse;
      assert.ok(plain.text.includes('<p>This is  by  at '), plain.text);
      const missing = (await wiki.api({ action: 'parse', text: 'x', revid: '99999999', formatversion: '2' })).json();
      assert.deepEqual([missing.error?.code, missing.error?.info], ['nosuchrevid', 'There is no revision with ID 99999999.']);
    });
  });
}

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
