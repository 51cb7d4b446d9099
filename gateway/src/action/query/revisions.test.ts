import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Revision } from '../../clients/types.js';
import { revisionInfo, sha1ToHex } from './revisions.js';
import { goldenBody, stripMeta } from './testing.js';

const golden = goldenBody('action_revisions_content.http') as { query: { pages: Record<string, { revisions: Record<string, unknown>[] }> } };
const goldenRev = golden.query.pages['1']?.revisions[0] ?? {};
const mainPageText = goldenRev['*'] as string;

const rev: Revision = {
  id: 1,
  pageId: 1,
  parentId: 0,
  timestamp: '2026-11-21T06:17:00.000Z',
  userId: 2,
  userText: 'MediaWiki default',
  comment: '',
  minor: false,
  sha1: '22vz5zlxa2zctewimaum2bf1due8hkl',
  size: 755,
  contentModel: 'wikitext',
  contentFormat: 'text/x-wiki',
  content: mainPageText,
  deleted: 0,
  tags: [],
  parentSize: -1,
};

test('sha1 is printed as 40 hex digits', () => {
  assert.equal(sha1ToHex('22vz5zlxa2zctewimaum2bf1due8hkl'), '11cef88175cf81168a86e7c0327a5b2d7a1920f5');
  assert.equal(sha1ToHex('022vz5zlxa2zctewimaum2bf1due8hkl'), '11cef88175cf81168a86e7c0327a5b2d7a1920f5');
});

test('legacy format (no rvslots): contentformat, contentmodel and content on the revision, as the golden sample', () => {
  const vals = revisionInfo(rev, { props: new Set(['content']), slots: undefined, rights: [] });
  assert.equal(vals._content, 'content');
  // fv1 renames the content key to "*": the golden sample's revision.
  const { content, ...rest } = stripMeta(vals) as Record<string, unknown>;
  assert.deepEqual({ ...rest, '*': content }, goldenRev);
});

test('rvslots=main: fields of MediaWiki 1.39 in its order', () => {
  const props = new Set(['ids', 'flags', 'timestamp', 'user', 'userid', 'size', 'slotsize', 'sha1', 'slotsha1', 'contentmodel', 'comment', 'content']);
  const vals = revisionInfo(rev, { props, slots: ['main'], rights: [] });
  const plain = stripMeta(vals) as Record<string, unknown>;
  assert.deepEqual(plain, {
    revid: 1,
    parentid: 0,
    minor: false,
    user: 'MediaWiki default',
    userid: 2,
    timestamp: '2026-11-21T06:17:00Z',
    size: 755,
    sha1: '11cef88175cf81168a86e7c0327a5b2d7a1920f5',
    slots: { main: { size: 755, sha1: '11cef88175cf81168a86e7c0327a5b2d7a1920f5', contentmodel: 'wikitext', contentformat: 'text/x-wiki', content: mainPageText } },
    comment: '',
  });
  assert.deepEqual(Object.keys(plain), ['revid', 'parentid', 'minor', 'user', 'userid', 'timestamp', 'size', 'sha1', 'slots', 'comment']);
  const slots = vals.slots as Record<string, unknown>;
  assert.equal(slots._type, 'kvp');
  assert.equal(slots._kvpkeyname, 'role');
  assert.equal(slots._kvpmerge, true);
});

test('an unknown rvslots value leaves an empty slots object', () => {
  assert.deepEqual(stripMeta(revisionInfo(rev, { props: new Set(['content']), slots: [], rights: [] })), { slots: {} });
});

test('anonymous authors are flagged; hidden user and comment need deletedhistory', () => {
  const anon = { ...rev, userId: 0, userText: '10.0.0.1', deleted: 4 | 2 };
  const props = new Set(['user', 'comment']);
  assert.deepEqual(stripMeta(revisionInfo(anon, { props, slots: undefined, rights: [] })), { userhidden: true, commenthidden: true });
  assert.deepEqual(stripMeta(revisionInfo(anon, { props, slots: undefined, rights: ['deletedhistory'] })), {
    userhidden: true,
    user: '10.0.0.1',
    anon: true,
    commenthidden: true,
    comment: '',
  });
});
