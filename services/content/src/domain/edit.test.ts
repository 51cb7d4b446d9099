/*
 * The edit flow's order (domain/edit.ts): the pre-save transform renders before the transaction
 * that locks the page row, and an edit saved by someone else between the preparation and the save
 * makes the edit be prepared again on the new latest revision — merged, or refused with
 * editconflict — never a lost update.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, MemoryKv, openDb, ServiceError, type Db } from '@quire/kit';
import { makeTestEnv, type TestEnv } from '@quire/kit/testing';
import { EditRequest } from '@quire/proto/wiki/content/edit/v1/edit';
import type { EditActor } from '@quire/proto/wiki/content/v1/common';
import { initialiseWiki } from '../store/bootstrap.js';
import { findPage } from '../store/pages.js';
import { DEFAULT_RATE_LIMITS, RateLimiter } from '../store/ratelimit.js';
import { RevisionStore } from '../store/revisions.js';
import { saveRevision, saveRevisionOnBase } from '../store/save.js';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import { editPage, type EditDeps } from './edit.js';
import type { WikitextPst } from './render.js';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');
const actor: EditActor = { id: 1, name: 'Admin', rights: ['edit', 'createpage', 'noratelimit', 'minoredit'], groups: ['sysop'], ip: '127.0.0.1' };
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`);

describe('edit: prepare outside the transaction, then save', () => {
  let te: TestEnv;
  let db: Db;
  let codec: TitleCodec;
  /** What the pre-save transform saw, and what it does before it answers (a concurrent edit). */
  let pstCalls: { inTransaction: boolean }[];
  let duringPst: (() => Promise<void>) | undefined;

  const deps = (): EditDeps => {
    const pst: WikitextPst = async (text) => {
      pstCalls.push({ inTransaction: db.inTransaction() });
      const concurrent = duringPst;
      duringPst = undefined;
      await concurrent?.();
      return text.replace('~~~~', '[[User:Admin|Admin]]');
    };
    return { db, codec, revisions: new RevisionStore(db), limiter: new RateLimiter(new MemoryKv(), DEFAULT_RATE_LIMITS), pst };
  };
  const edit = (fields: Partial<EditRequest>) => editPage(deps(), EditRequest.fromPartial({ actor, maxArticleSizeKb: 2048, watchlist: 'nochange', ...fields }));
  const latestText = async (title: string) => {
    const page = (await findPage(db, db.schema, { ns: 0, dbkey: title }))!;
    const [rev] = await new RevisionStore(db).latestOf([page.id], true);
    return { id: rev!.id, parentId: rev!.parentId, text: rev!.content! };
  };
  /** Another user's edit of one line, saved directly on the current latest revision. */
  const otherEdit = (title: string, line: number, value: string) => async () => {
    const latest = await latestText(title);
    const text = latest.text
      .split('\n')
      .map((l, i) => (i === line ? value : l))
      .join('\n');
    await saveRevision(db, codec, {
      ns: 0,
      dbkey: title,
      baseRevId: latest.id,
      text,
      contentModel: 'wikitext',
      contentFormat: 'text/x-wiki',
      user: { id: 2, name: 'Other' },
      comment: '',
      minor: false,
      tags: [],
    });
  };

  before(async () => {
    te = await makeTestEnv('embedded');
    db = await openDb({ dataDir: te.dataDir, schema: 'content', migrationsDir, log: createLogger('test', 'silent') });
    codec = new TitleCodec(new NamespaceTable('Quire'));
    await initialiseWiki(db, codec);
  });
  after(async () => {
    await db.close();
    await te.cleanup();
  });

  test('the pre-save transform runs outside any transaction, and its output is saved', async () => {
    pstCalls = [];
    const res = await edit({ title: 'Signed', text: 'Hello ~~~~' });
    assert.equal(res.nochange, false);
    assert.deepEqual(pstCalls, [{ inTransaction: false }]);
    assert.equal((await latestText('Signed')).text, 'Hello [[User:Admin|Admin]]');
  });

  test('an edit saved between preparation and save: prepared again and merged onto it', async () => {
    const base = await edit({ title: 'Raced', text: lines(10).join('\n') });
    pstCalls = [];
    duringPst = otherEdit('Raced', 7, 'theirs');
    const mine = lines(10)
      .map((l, i) => (i === 2 ? 'mine' : l))
      .join('\n');
    const res = await edit({ title: 'Raced', text: mine, baseRevId: base.newRevId });
    assert.equal(pstCalls.length, 2, 'prepared twice: once before the concurrent save, once after');
    assert.equal(res.merged, true);
    const latest = await latestText('Raced');
    assert.equal(latest.id, res.newRevId);
    assert.equal(res.oldRevId, latest.parentId, 'saved on top of the concurrent edit');
    assert.notEqual(latest.parentId, base.newRevId);
    const text = latest.text.split('\n');
    assert.deepEqual([text[2], text[7]], ['mine', 'theirs'], 'both changes kept');
  });

  test('an overlapping edit saved meanwhile: editconflict, and the other edit stays', async () => {
    const base = await edit({ title: 'Clash', text: lines(5).join('\n') });
    duringPst = otherEdit('Clash', 1, 'theirs');
    const mine = lines(5)
      .map((l, i) => (i === 1 ? 'mine' : l))
      .join('\n');
    await assert.rejects(edit({ title: 'Clash', text: mine, baseRevId: base.newRevId }), (e: unknown) => e instanceof ServiceError && e.mwCode === 'editconflict');
    assert.equal((await latestText('Clash')).text.split('\n')[1], 'theirs');
  });

  test("another user's overlapping edit in the base revision's second is not overwritten when baserevid and basetimestamp are both sent", async () => {
    const base = await edit({ title: 'Samesecond', text: lines(5).join('\n') });
    // Saved right after the base (the same second, usually): the base timestamp alone cannot tell them apart.
    await otherEdit('Samesecond', 1, 'theirs')();
    const baseTimestamp = base.newTimestamp;
    const mine = lines(5)
      .map((l, i) => (i === 1 ? 'mine' : l))
      .join('\n');
    await assert.rejects(
      edit({ title: 'Samesecond', text: mine, baseRevId: base.newRevId, baseTimestamp: baseTimestamp.replace(/\.\d+Z$/, 'Z') }),
      (e: unknown) => e instanceof ServiceError && e.mwCode === 'editconflict',
    );
    assert.equal((await latestText('Samesecond')).text.split('\n')[1], 'theirs');
  });

  test('an append prepared on a revision that moved on is appended to the new one', async () => {
    await edit({ title: 'Appended', text: 'a' });
    duringPst = async () => {
      const latest = await latestText('Appended');
      await saveRevision(db, codec, {
        ns: 0,
        dbkey: 'Appended',
        baseRevId: latest.id,
        text: 'a\nb',
        contentModel: 'wikitext',
        contentFormat: 'text/x-wiki',
        user: { id: 2, name: 'Other' },
        comment: '',
        minor: false,
        tags: [],
      });
    };
    await edit({ title: 'Appended', appendText: '\nc' });
    assert.equal((await latestText('Appended')).text, 'a\nb\nc');
  });
  test('the one-statement save on a stale base writes nothing and answers editconflict; on the latest it writes the whole trail', async () => {
    const first = await edit({ title: 'Onestatement', text: 'one [[Link]]' });
    await edit({ title: 'Onestatement', text: 'two [[Link]]' });
    const count = async () =>
      (
        await db.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM content.revision) + (SELECT count(*) FROM content.content) + (SELECT count(*) FROM content.recentchanges)
              + (SELECT count(*) FROM content.change_tag) + (SELECT ss_total_edits FROM content.site_stats) AS n`,
        )
      ).rows[0]!.n;
    const before = await count();
    const input = {
      ns: 0,
      dbkey: 'Onestatement',
      pageId: first.pageId,
      text: 'three',
      contentModel: 'wikitext',
      contentFormat: 'text/x-wiki',
      user: { id: 1, name: 'Admin' },
      comment: 'c',
      minor: false,
      tags: ['mw-replace'],
      base: { model: 'wikitext', text: 'one [[Link]]', size: 12 },
    };
    await assert.rejects(saveRevisionOnBase(db, codec, { ...input, baseRevId: first.newRevId }), (e: unknown) => e instanceof ServiceError && e.mwCode === 'editconflict');
    assert.equal(await count(), before, 'nothing written');
    const latest = await latestText('Onestatement');
    const saved = await saveRevisionOnBase(db, codec, { ...input, baseRevId: latest.id, base: { model: 'wikitext', text: latest.text, size: 12 } });
    assert.equal(Number(await count()), Number(before) + 5, 'revision, content, recent change, tag and the edit counter');
    const after = await latestText('Onestatement');
    assert.deepEqual([after.id, after.parentId, after.text], [saved.revId, latest.id, 'three']);
    const rc = await db.query<{ rc_this_oldid: number; rc_last_oldid: number; rc_old_len: number; rc_new_len: number }>(
      'SELECT rc_this_oldid, rc_last_oldid, rc_old_len, rc_new_len FROM content.recentchanges WHERE rc_id = $1',
      [saved.rcId],
    );
    assert.deepEqual(rc.rows[0], { rc_this_oldid: saved.revId, rc_last_oldid: latest.id, rc_old_len: 12, rc_new_len: 5 });
    await assert.rejects(saveRevisionOnBase(db, codec, { ...input, dbkey: 'Nosuchpage', baseRevId: latest.id }), (e: unknown) => e instanceof ServiceError && e.mwCode === 'missingtitle');
  });
});
