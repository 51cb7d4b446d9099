/* The special pages' building blocks: escaping by default, special page addressing, returnto, form grants. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { grantsFromForm } from './grants.js';
import { hidden, html, multiline, SafeHtml } from './html.js';
import { articlePath, indexPath, loginPath, parseSpecialTitle, returnToPath, specialPath } from './paths.js';
import { formatDateAt, formatTime, isoFromMwTimestamp, mwTimestamp, sizeDiff } from './wiki.js';

describe('html template', () => {
  test('escapes every interpolated string, in text and in attributes', () => {
    const hostile = `<script>alert("x")</script>&'`;
    assert.equal(
      html`<p title="${hostile}">${hostile}</p>`.value,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#039;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#039;</p>',
    );
    assert.equal(hidden('a"b', '"><x>').value, '<input type="hidden" name="a&quot;b" value="&quot;&gt;&lt;x&gt;">');
  });

  test('keeps SafeHtml, joins arrays, drops null/undefined/booleans, prints numbers', () => {
    const items = ['<a>', new SafeHtml('<b>')];
    assert.equal(html`${items}|${null}${undefined}${false}${true}|${42}|${html`<i>${'<'}</i>`}`.value, '&lt;a&gt;<b>||42|<i>&lt;</i>');
  });

  test('multiline: escaped lines joined by <br>', () => {
    assert.equal(multiline('a<b\nc').value, 'a&lt;b<br>c');
  });
});

describe('special page addressing', () => {
  test('names are case-insensitive, blanks and underscores alike; the subpage keeps its DB-key form', () => {
    assert.deepEqual(parseSpecialTitle('Special:BotPasswords'), { name: 'BotPasswords', known: true, subpage: null });
    assert.deepEqual(parseSpecialTitle('special:bot_passwords/my bot'), { name: 'BotPasswords', known: true, subpage: 'my_bot' });
    assert.deepEqual(parseSpecialTitle(' Special : User login'), { name: 'UserLogin', known: true, subpage: null });
    assert.deepEqual(parseSpecialTitle('Special:BotPasswords/a/b'), { name: 'BotPasswords', known: true, subpage: 'a/b' });
    assert.deepEqual(parseSpecialTitle('Special:Nope'), { name: 'Nope', known: false, subpage: null });
    assert.equal(parseSpecialTitle('Main Page'), null);
    assert.equal(parseSpecialTitle('Talk:Special:UserLogin'), null);
  });

  test('paths: wfUrlencode-style titles', () => {
    assert.equal(specialPath('BotPasswords', 'my bot'), '/wiki/Special:BotPasswords/my_bot');
    assert.equal(specialPath('BotPasswords', '<x>?#&'), '/wiki/Special:BotPasswords/%3Cx%3E%3F%23%26');
    assert.equal(articlePath('Main Page', new URLSearchParams({ a: '1' })), '/wiki/Main_Page?a=1');
    assert.equal(loginPath('Special:BotPasswords', 'exception-nologin-text'), '/w/index.php?title=Special%3AUserLogin&returnto=Special%3ABotPasswords&returntoquery=&warning=exception-nologin-text');
  });

  test('returnto: a title of this wiki, or the Main Page; never another site', () => {
    assert.equal(returnToPath('Special:BotPasswords', 'x=1&y=a b'), '/wiki/Special:BotPasswords?x=1&y=a+b');
    assert.equal(returnToPath('', ''), '/wiki/Main_Page');
    for (const t of ['//evil.example', '/x', 'a\r\nLocation: http://evil.example', 'x'.repeat(256)]) assert.equal(returnToPath(t, ''), '/wiki/Main_Page', t);
    assert.equal(returnToPath('https://evil.example/', ''), '/wiki/https://evil.example/', 'a path on this site');
  });
});

describe('wiki page helpers', () => {
  test('index.php addresses: the title wfUrlencoded, the other parameters encoded', () => {
    assert.equal(indexPath('Main Page', { action: 'edit', section: 2 }), '/w/index.php?title=Main_Page&action=edit&section=2');
    assert.equal(indexPath('Talk:A&B/c?', { diff: 'prev', oldid: 5 }), '/w/index.php?title=Talk:A%26B/c%3F&diff=prev&oldid=5');
    assert.equal(indexPath('X', {}), '/w/index.php?title=X');
  });

  test("MediaWiki's date format (UTC) and TS_MW round trip", () => {
    assert.equal(formatTime('2026-11-27T09:05:00Z'), '09:05, 27 November 2026');
    assert.equal(formatDateAt('2026-01-02T23:59:59Z'), '2 January 2026, at 23:59');
    assert.equal(formatTime('nonsense'), 'nonsense');
    assert.equal(mwTimestamp('2026-11-27T09:05:03Z'), '20261127090503');
    assert.equal(isoFromMwTimestamp('20261127090503'), '2026-11-27T09:05:03Z');
    assert.equal(isoFromMwTimestamp('2026'), '');
  });

  test('size differences as ChangesList shows them', () => {
    assert.equal(sizeDiff(12).value, '<span class="mw-plusminus-pos">(+12)</span>');
    assert.equal(sizeDiff(-3).value, '<span class="mw-plusminus-neg">(\u22123)</span>');
    assert.equal(sizeDiff(0).value, '<span class="mw-plusminus-null">(0)</span>');
  });
});

describe('grants of a form', () => {
  test('checkbox values grant-<name>, basic always in, duplicates and other values dropped', () => {
    assert.deepEqual(grantsFromForm(['grant-editpage', 'editpage', 'grant-editpage', 'grant-delete']), ['basic', 'editpage', 'delete']);
    assert.deepEqual(grantsFromForm([]), ['basic']);
  });
});
