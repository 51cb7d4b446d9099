import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PageRecord } from '../../clients/types.js';
import { actionErrors, associatedTitle, mayDo, pageInfo, type InfoOptions, type PermissionContext } from './info.js';
import type { ResultObject } from '../types.js';
import { NAMESPACES, page } from './testing.js';

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
    contentmodel: 'wikitext',
    pagelanguage: 'en',
    pagelanguagehtmlcode: 'en',
    pagelanguagedir: 'ltr',
    touched: '2026-11-21T06:17:00Z',
    lastrevid: 1,
    length: 755,
    new: true,
    associatedpage: 'Talk:Main Page',
    fullurl: 'http://127.0.0.1:8080/wiki/Main_Page',
    editurl: 'http://127.0.0.1:8080/w/index.php?title=Main_Page&action=edit',
    canonicalurl: 'http://127.0.0.1:8080/wiki/Main_Page',
    displaytitle: 'Main Page',
  });
});

test('a missing talk page has no page fields but its subject id', () => {
  assert.deepEqual(pageInfo(page({ ns: 1, title: 'Talk:Main Page', missing: true }), false, options), {
    contentmodel: 'wikitext',
    pagelanguage: 'en',
    pagelanguagehtmlcode: 'en',
    pagelanguagedir: 'ltr',
    subjectid: 1,
    associatedpage: 'Main Page',
    fullurl: 'http://127.0.0.1:8080/wiki/Talk:Main_Page',
    editurl: 'http://127.0.0.1:8080/w/index.php?title=Talk:Main_Page&action=edit',
    canonicalurl: 'http://127.0.0.1:8080/wiki/Talk:Main_Page',
    displaytitle: 'Talk:Main Page',
  });
});

test('watch state, counts, readable, preload, display and variant titles in MediaWiki 1.39 order', () => {
  const props = new Set(['watched', 'watchers', 'visitingwatchers', 'notificationtimestamp', 'readable', 'preload', 'displaytitle', 'varianttitles']);
  const details = new Map([
    [
      'Main Page',
      { title: 'Main Page', displayTitle: '<i>Main</i> Page', watched: true, watchExpiry: '2030-01-01T00:00:00Z', notificationTimestamp: '2026-11-22T00:00:00Z', watchers: 2, visitingWatchers: 1 },
    ],
    ['Talk:Nope', { title: 'Talk:Nope', watched: false, watchExpiry: '', notificationTimestamp: '', watchers: 0, visitingWatchers: 0 }],
  ]);
  const o: InfoOptions = { ...options, props, details, watchStateKnown: true, showWatchers: true, canRead: true };
  const main = pageInfo(page({ id: 1, ns: 0, title: 'Main Page', latestRevId: 1, touched: '2026-11-21T06:17:00Z', length: 755 }), true, o);
  assert.deepEqual(Object.keys(main).slice(7), ['watched', 'watchlistexpiry', 'watchers', 'visitingwatchers', 'notificationtimestamp', 'readable', 'preload', 'displaytitle', 'varianttitles']);
  assert.equal(main.watched, true);
  assert.equal(main.watchlistexpiry, '2030-01-01T00:00:00Z');
  assert.equal(main.notificationtimestamp, '2026-11-22T00:00:00Z');
  assert.equal(main.preload, '');
  assert.equal(main.displaytitle, '<i>Main</i> Page');
  assert.deepEqual(main.varianttitles, { en: '<i>Main</i> Page' });

  const missing = pageInfo(page({ ns: 1, title: 'Talk:Nope', missing: true }), false, o);
  assert.deepEqual(
    { watched: missing.watched, watchers: missing.watchers, notificationtimestamp: missing.notificationtimestamp, preload: missing.preload, displaytitle: missing.displaytitle },
    { watched: false, watchers: 0, notificationtimestamp: '', preload: null, displaytitle: 'Talk:Nope' },
  );
  assert.equal('varianttitles' in missing, false, 'only existing pages have variant titles');

  // Anonymous callers: not watching, no counts (no unwatchedpages right).
  const anon = pageInfo(page({ id: 1, ns: 1, title: 'Talk:Main Page' }), true, { ...o, details: undefined, watchStateKnown: false, showWatchers: false });
  assert.equal(anon.watched, false);
  assert.equal('watchers' in anon, false);
  assert.deepEqual(anon.varianttitles, { en: 'Talk:Main Page' });
});

test('intestactionsdetail=full: each reason as MediaWiki gives it, in its order; boolean is "no reasons"', () => {
  const missing = (ns: number, title: string): PageRecord => page({ ns, title, missing: true });
  const anonRights = ['read', 'edit', 'createpage', 'createtalk', 'createaccount'];
  const pc: PermissionContext = {
    anonymous: true,
    groupRights: [
      { name: '*', rights: anonRights },
      { name: 'user', rights: ['move', 'upload'] },
      { name: 'sysop', rights: ['delete', 'protect', 'upload', 'editinterface', 'editprotected'] },
    ],
    projectNs: 'Quire',
  };
  const namespaces = [...NAMESPACES.namespaces, { ...NAMESPACES.namespaces[0]!, id: 8, name: 'MediaWiki', protection: 'editinterface' }];
  const errs = (action: string, p: PageRecord, protections: ResultObject[] = []) => actionErrors(action, p, anonRights, namespaces, protections, pc);
  const talk = missing(1, 'Talk:Nope');
  assert.deepEqual(errs('edit', talk), []);
  assert.deepEqual(errs('move', talk), [{ code: 'cantmove-anon', text: 'You must be a registered user and [[Special:UserLogin|logged in]] to move a page.' }]);
  assert.deepEqual(errs('upload', talk), [
    { code: 'permissiondenied', text: 'The action you have requested is limited to users in one of the groups: [[Quire:Users|Users]], [[Quire:Administrators|Administrators]].' },
  ]);
  const iface = errs('protect', missing(8, 'MediaWiki:Foo'));
  assert.deepEqual(
    iface.map((e) => e.code),
    ['permissiondenied', 'protectednamespace-interface', 'cantedit'],
  );
  assert.equal(iface[0]!.text, 'The action you have requested is limited to users in the group: [[Quire:Administrators|Administrators]].');
  assert.ok(!iface[1]!.text.includes('\n'), 'line breaks become spaces');
  assert.deepEqual(errs('create', missing(8, 'MediaWiki:Foo')), []);
  const protectedPage = page({ ns: 0, title: 'FeedA', id: 2 });
  const prot = [{ type: 'edit', level: 'sysop', expiry: 'infinity' }];
  assert.deepEqual(
    errs('edit', protectedPage, prot).map((e) => e.code),
    ['protectedpage'],
  );
  assert.deepEqual(
    errs('delete', protectedPage, prot).map((e) => [e.code, e.text]),
    [
      ['permissiondenied', 'The action you have requested is limited to users in the group: [[Quire:Administrators|Administrators]].'],
      ['cantedit', 'You cannot delete this page because it has been protected.'],
    ],
  );
  assert.equal(mayDo('edit', protectedPage, anonRights, namespaces, prot), false);
  assert.equal(mayDo('edit', talk, anonRights, namespaces, []), true);
});
