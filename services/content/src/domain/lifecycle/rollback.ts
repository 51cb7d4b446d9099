/*
 * RollbackPage, RecentChange::markPatrolled and ApiPurge of MediaWiki 1.39.
 */
import { conflict, invalidArgument, notFound, permissionDenied } from '@quire/kit';
import type { PatrolRequest, PatrolResponse, PurgePagesRequest, PurgePagesResponse, RollbackRequest, RollbackResponse } from '@quire/proto/wiki/content/edit/v1/edit';
import { queueJob } from '../../store/jobs.js';
import { lockExistingPage } from '../../store/lifecycle/common.js';
import { transcluders } from '../../store/links.js';
import { addChangeTags, autopatrolRecentChanges, flagRecentChangesBot, lockRecentChange, markRecentChangePatrolled, nowToTheSecond, PATROL, writeLogEntry } from '../../store/logging.js';
import { touchPage } from '../../store/pages.js';
import { interfaceMessages } from '../interface-messages.js';
import { dropParserCache } from '../../store/parser-cache.js';
import { checkTitlePermissions } from '../protection.js';
import { recordPageChange } from '../../store/page-cache.js';
import { contentById, latestAuthors } from '../../store/revisions.js';
import { saveRevision } from '../../store/save.js';
import { applyRequestedWatch, requireActor, authorize, targetOf, userOf, type LifecycleDeps } from './common.js';

export async function rollback(deps: LifecycleDeps, req: RollbackRequest): Promise<RollbackResponse> {
  const actor = requireActor(req.actor);
  await authorize(deps, actor, 'rollback', req.tags);
  const { db, codec } = deps;
  const s = db.schema;
  const target = await targetOf(deps, req.title, req.pageId);
  return db.tx(async (q) => {
    const page = await lockExistingPage(q, db, target.ns, target.dbkey);
    await checkTitlePermissions(q, db, codec, target, 'edit', actor, { model: page.model, known: { pageId: page.id } });
    const title = codec.prefixedText(page.ns, page.dbkey);
    const history = { rows: await latestAuthors(q, s, page.id, 500) };
    const top = history.rows[0]!;
    if (top.actor_name !== req.user) {
      throw conflict(
        'alreadyrolled',
        `Cannot rollback the last edit of [[:${title}]] by [[User:${req.user}|${req.user}]] ([[User talk:${req.user}|talk]] | [[Special:Contributions/${req.user}|contribs]]).\nSomeone else has edited or rolled back the page already.\n\nThe last edit to the page was by [[User:${top.actor_name}|${top.actor_name}]] ([[User talk:${top.actor_name}|talk]] | [[Special:Contributions/${top.actor_name}|contribs]]).`,
      );
    }
    const targetIndex = history.rows.findIndex((r) => r.actor_name !== req.user);
    if (targetIndex < 0) throw invalidArgument('onlyauthor', 'Cannot revert the edit.\nThe last contributor is the only author of this page.');
    const restore = history.rows[targetIndex]!;
    const reverted = history.rows.slice(0, targetIndex).map((r) => r.rev_id);
    const c = (await contentById(q, s, restore.rev_content_id))!;
    // RollbackPage: the revertpage message of the wiki unless a summary is given.
    const summary = req.summary !== undefined && req.summary !== '' ? req.summary : (await interfaceMessages(db, ['revertpage']))('revertpage', restore.actor_name, req.user);
    const markBot = req.markBot && actor.rights.includes('markbotedits');
    const has = (r: string) => actor.rights.includes(r);
    const saved = await saveRevision(db, codec, {
      ns: page.ns,
      dbkey: page.dbkey,
      baseRevId: page.latest,
      text: c.content_text,
      contentModel: c.content_model,
      contentFormat: c.content_format,
      user: userOf(actor),
      comment: summary,
      minor: has('minoredit'),
      bot: markBot || has('bot'),
      autopatrol: has('autopatrol'),
      tags: ['mw-rollback', ...req.tags],
    });
    // The reverted edits: tagged mw-reverted (RevertedTagUpdate), bot-flagged with markbot, and
    // patrolled when the rollbacker may autopatrol (RollbackPage).
    for (const revId of reverted) await addChangeTags(q, db, ['mw-reverted'], { revId });
    if (markBot) await flagRecentChangesBot(q, s, reverted);
    if (has('autopatrol')) await autopatrolRecentChanges(q, s, reverted);
    await applyRequestedWatch(deps, q, actor, page, req);
    return { title, pageId: page.id, summary, revid: saved.revId, oldRevid: page.latest, lastRevid: restore.rev_id };
  });
}

export async function patrol(deps: LifecycleDeps, req: PatrolRequest): Promise<PatrolResponse> {
  const actor = requireActor(req.actor);
  await authorize(deps, actor, 'patrol', req.tags);
  const { db, codec } = deps;
  const s = db.schema;
  return db.tx(async (q) => {
    const rc = await lockRecentChange(q, s, req.rcId > 0 ? { rcId: req.rcId } : { revId: req.revId });
    if (!rc) {
      throw req.rcId > 0 ? notFound('nosuchrcid', `There is no recent change with ID ${req.rcId}.`) : notFound('nosuchrevid', `There is no revision with ID ${req.revId}.`);
    }
    const title = codec.prefixedText(rc.rc_namespace, rc.rc_title);
    if (rc.actor_name === actor.name && !actor.rights.includes('autopatrol')) {
      throw permissionDenied('noautopatrol', "You don't have permission to mark your own changes as patrolled.");
    }
    if (rc.rc_patrolled === PATROL.unpatrolled) {
      await markRecentChangePatrolled(q, s, rc.rc_id);
      // PatrolLog::record: logged, not published to recent changes.
      await writeLogEntry(q, db, {
        type: 'patrol',
        action: 'patrol',
        actor: userOf(actor),
        ns: rc.rc_namespace,
        dbkey: rc.rc_title,
        pageId: rc.rc_cur_id,
        comment: '',
        params: { curid: rc.rc_this_oldid, previd: rc.rc_last_oldid, auto: false },
        tags: req.tags,
      });
    }
    return { rcId: rc.rc_id, ns: rc.rc_namespace, title };
  });
}

/**
 * Purges existing pages: their cached renderings are dropped and, with forcelinkupdate, a
 * refreshLinks job re-renders them and replaces their link tables (recursively: also every page
 * that transcludes them).
 */
export async function purgePages(deps: LifecycleDeps, req: PurgePagesRequest): Promise<PurgePagesResponse> {
  const { db, codec } = deps;
  const s = db.schema;
  const purged: string[] = [];
  for (const text of req.titles) {
    const t = codec.parse(text);
    await db.tx(async (q) => {
      const row = await touchPage(q, s, t, nowToTheSecond());
      if (!row) return;
      await dropParserCache(q, s, row.page_latest);
      await recordPageChange(db, q, t.ns, t.dbkey);
      if (req.forceLinkUpdate || req.forceRecursiveLinkUpdate) {
        const targets = [{ ns: t.ns, dbkey: t.dbkey, pageId: row.page_id }];
        if (req.forceRecursiveLinkUpdate) {
          for (const u of await transcluders(q, s, t.ns, t.dbkey)) targets.push({ ns: u.ns, dbkey: u.dbkey, pageId: u.id });
        }
        for (const j of targets) {
          await queueJob(q, s, 'refreshLinks', j.ns, j.dbkey, { pageId: j.pageId, cause: 'purge' });
        }
      }
      purged.push(text);
    });
  }
  return { purged };
}
