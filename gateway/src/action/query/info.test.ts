import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PageRecord } from '@quire/proto/wiki/content/v1/content';
import { associatedTitle, pageInfo, type InfoOptions } from './info.js';
import { NAMESPACES } from './testing.js';

function page(p: Partial<PageRecord> & { title: string; ns: number }): PageRecord {
  return {
    id: 0, dbkey: p.title.replace(/ /g, '_'), missing: false, special: false, latestRevId: 0, latestTimestamp: '', touched: '',
    length: 0, redirect: false, isNew: false, contentModel: 'wikitext', pageLanguage: 'en', redirectTarget: '', ...p,
  };
}

const options: InfoOptions = {
  props: new Set(['url', 'talkid', 'subjectid', 'associatedpage', 'displaytitle']),
  server: 'http://127.0.0.1:8080',
  lang: 'en',
  resolvingRedirects: false,
  namespaces: NAMESPACES.namespaces,
  associatedIds: new Map([['Main Page', 1]]),
};

test('associated pages: talk of subject pages and subject of talk pages, with local namespace names', () => {
  assert.equal(associatedTitle(page({ ns: 0, title: 'Main Page' }), NAMESPACES.namespaces), 'Talk:Main Page');
  assert.equal(associatedTitle(page({ ns: 5, title: 'AnchorWiki talk:About' }), NAMESPACES.namespaces), 'AnchorWiki:About');
  assert.equal(associatedTitle(page({ ns: -1, title: 'Special:X' }), NAMESPACES.namespaces), undefined);
});

test('an existing page, as MediaWiki 1.39 answers prop=info&inprop=url|talkid|subjectid|displaytitle|associatedpage', () => {
  const main = page({ id: 1, ns: 0, title: 'Main Page', latestRevId: 1, touched: '2026-11-21T06:17:00Z', length: 755, isNew: true });
  assert.deepEqual(pageInfo(main, true, options), {
    contentmodel: 'wikitext', pagelanguage: 'en', pagelanguagehtmlcode: 'en', pagelanguagedir: 'ltr',
    touched: '2026-11-21T06:17:00Z', lastrevid: 1, length: 755, new: true,
    associatedpage: 'Talk:Main Page',
    fullurl: 'http://127.0.0.1:8080/wiki/Main_Page', editurl: 'http://127.0.0.1:8080/w/index.php?title=Main_Page&action=edit',
    canonicalurl: 'http://127.0.0.1:8080/wiki/Main_Page', displaytitle: 'Main Page',
  });
});

test('a missing talk page has no page fields but its subject id', () => {
  assert.deepEqual(pageInfo(page({ ns: 1, title: 'Talk:Main Page', missing: true }), false, options), {
    contentmodel: 'wikitext', pagelanguage: 'en', pagelanguagehtmlcode: 'en', pagelanguagedir: 'ltr',
    subjectid: 1, associatedpage: 'Main Page',
    fullurl: 'http://127.0.0.1:8080/wiki/Talk:Main_Page', editurl: 'http://127.0.0.1:8080/w/index.php?title=Talk:Main_Page&action=edit',
    canonicalurl: 'http://127.0.0.1:8080/wiki/Talk:Main_Page', displaytitle: 'Talk:Main Page',
  });
});
