import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainSnippet, wikitextToPlain } from './snippet.js';

test('a snippet of wikitext reads as plain text with its matches highlighted', () => {
  const snippet =
    "...lpha&#039;&#039;&#039; is a [[Beta|linked]] page about {{Box|apples}} and the quick brown <span class='searchmatch'>fox</span>.\nThe <span class='searchmatch'>fox</span> jumped.\n";
  assert.equal(plainSnippet(snippet).value, '...lpha is a linked page about apples and the quick brown <span class="searchmatch">fox</span>.<br>The <span class="searchmatch">fox</span> jumped.');
});

test('markup removal: templates, links, headings, lists, switches, tags, categories', () => {
  assert.equal(wikitextToPlain('{{Infobox}}Text'), 'Text');
  assert.equal(wikitextToPlain('{{Outer|{{Inner|deep}}}}'), 'deep');
  assert.equal(wikitextToPlain('[[Main Page]] and [[:Category:X|cats]]'), 'Main Page and cats');
  assert.equal(wikitextToPlain('x[[Category:Letters]]y'), 'xy');
  assert.equal(wikitextToPlain('[[File:A.png|thumb|A caption]]'), 'A caption');
  assert.equal(wikitextToPlain('== History ==\n* one\n# two'), 'History\none\ntwo');
  assert.equal(wikitextToPlain("__NOTOC__'''bold''' <b>tag</b> [https://example.org label]"), 'bold tag label');
  assert.equal(wikitextToPlain('cut {{Box|a'), 'cut ');
});

test('escaped text stays escaped; a match in a removed template name leaves nothing; html in the snippet is never passed through', () => {
  assert.equal(plainSnippet('&lt;script&gt;alert(1)&lt;/script&gt; <span class="searchmatch">x</span>').value, 'alert(1) <span class="searchmatch">x</span>');
  assert.equal(plainSnippet('5 &lt; 6 &amp;&amp; <span class="searchmatch">y</span>').value, '5 &lt; 6 &amp;&amp; <span class="searchmatch">y</span>');
  assert.equal(plainSnippet('{{<span class="searchmatch">Box</span>}} rest').value, 'rest');
  assert.equal(plainSnippet('<img src=x onerror=alert(1)>text').value, 'text');
});
