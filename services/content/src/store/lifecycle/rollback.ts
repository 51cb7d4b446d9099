/*
 * RollbackPage, RecentChange::markPatrolled and ApiPurge of MediaWiki 1.39.
 */
import { conflict, invalidArgument, notFound, permissionDenied } from '@quire/kit';
import type {
  PatrolRequest,
  PatrolResponse,
  PurgePagesRequest,
  PurgePagesResponse,
  RollbackRequest,
  RollbackResponse,
} from '@quire/proto/wiki/content/v1/content';
import { addChangeTags, nowToTheSecond, PATROL, writeLogEntry } from '../logging.js';
import { checkProtection } from '../protection.js';
import { recordPageChange } from '../page-cache.js';
import { saveRevision } from '../save.js';
import { applyRequestedWatch, lockExistingPage, requireActor, authorize, targetOf, userOf, type LifecycleDeps } from './common.js';

interface RevisionAuthor {
  rev_id: number;
  actor_name: string;
  rev_content_id: number;
}

export async function rollback(deps: LifecycleDeps, req: RollbackRequest): Promise<RollbackResponse> {
  const actor = requireActor(req.actor);
  await authorize(deps, actor, 'rollback', req.tags);
  const { db, codec } = deps;
  const s = db.schema;
  const target = await targetOf(deps, req.title, req.pageId);
  return db.tx(async (q) => {
    const page = await lockExistingPage(q, db, target.ns, target.dbkey);
    await checkProtection(q, db, codec, target, 'edit', actor.rights);
    const title = codec.prefixedText(page.ns, page.dbkey);
    const history = await q.query<RevisionAuthor>(
      `SELECT r.rev_id, a.actor_name, r.rev_content_id FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor
        WHERE r.rev_page = $1 ORDER BY r.rev_timestamp DESC, r.rev_id DESC LIMIT 500`,
      [page.id],
    );
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
    const content = await q.query<{ content_text: string; content_model: string; content_format: string }>(
      `SELECT content_text, content_model, content_format FROM ${s}.content WHERE content_id = $1`,
      [restore.rev_content_id],
    );
    const c = content.rows[0]!;
    const summary =
      req.summary !== undefined && req.summary !== ''
        ? req.summary
        : `Reverted edits by [[Special:Contributions/${req.user}|${req.user}]] ([[User talk:${req.user}|talk]]) to last revision by [[User:${restore.actor_name}|${restore.actor_name}]]`;
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
    if (markBot) await q.query(`UPDATE ${s}.recentchanges SET rc_bot = true WHERE rc_this_oldid = ANY($1::bigint[])`, [reverted]);
    if (has('autopatrol')) {
      await q.query(`UPDATE ${s}.recentchanges SET rc_patrolled = ${PATROL.autopatrolled} WHERE rc_this_oldid = ANY($1::bigint[]) AND rc_patrolled = 0`, [reverted]);
    }
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
    const r = await q.query<{ rc_id: number; rc_namespace: number; rc_title: string; rc_patrolled: number; rc_cur_id: number; rc_this_oldid: number; rc_last_oldid: number; actor_name: string }>(
      `SELECT rc.rc_id, rc.rc_namespace, rc.rc_title, rc.rc_patrolled, rc.rc_cur_id, rc.rc_this_oldid, rc.rc_last_oldid, a.actor_name
         FROM ${s}.recentchanges rc JOIN ${s}.actor a ON a.actor_id = rc.rc_actor
        WHERE ${req.rcId > 0 ? 'rc.rc_id = $1' : 'rc.rc_this_oldid = $1 AND rc.rc_type IN (0, 1)'} FOR UPDATE OF rc`,
      [req.rcId > 0 ? req.rcId : req.revId],
    );
    const rc = r.rows[0];
    if (!rc) {
      throw req.rcId > 0
        ? notFound('nosuchrcid', `There is no recent change with ID ${req.rcId}.`)
        : notFound('nosuchrevid', `There is no revision with ID ${req.revId}.`);
    }
    const title = codec.prefixedText(rc.rc_namespace, rc.rc_title);
    if (rc.actor_name === actor.name && !actor.rights.includes('autopatrol')) {
      throw permissionDenied('noautopatrol', "You don't have permission to mark your own changes as patrolled.");
    }
    if (rc.rc_patrolled === PATROL.unpatrolled) {
      await q.query(`UPDATE ${s}.recentchanges SET rc_patrolled = ${PATROL.patrolled} WHERE rc_id = $1`, [rc.rc_id]);
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
      const page = await q.query<{ page_id: number; page_latest: number }>(
        `UPDATE ${s}.page SET page_touched = $3 WHERE page_namespace = $1 AND page_title = $2 RETURNING page_id, page_latest`,
        [t.ns, t.dbkey, nowToTheSecond()],
      );
      const row = page.rows[0];
      if (!row) return;
      await q.query(`DELETE FROM ${s}.parser_cache WHERE pc_rev_id = $1`, [row.page_latest]);
      await recordPageChange(db, q, t.ns, t.dbkey);
      if (req.forceLinkUpdate || req.forceRecursiveLinkUpdate) {
        const targets = [{ ns: t.ns, dbkey: t.dbkey, pageId: row.page_id }];
        if (req.forceRecursiveLinkUpdate) {
          const users = await q.query<{ page_id: number; page_namespace: number; page_title: string }>(
            `SELECT p.page_id, p.page_namespace, p.page_title FROM ${s}.templatelinks tl JOIN ${s}.page p ON p.page_id = tl.tl_from
              WHERE tl.tl_namespace = $1 AND tl.tl_title = $2`,
            [t.ns, t.dbkey],
          );
          for (const u of users.rows) targets.push({ ns: u.page_namespace, dbkey: u.page_title, pageId: u.page_id });
        }
        for (const j of targets) {
          await q.query(
            `INSERT INTO ${s}.job (job_cmd, job_namespace, job_title, job_params)
             SELECT 'refreshLinks', $1, $2, jsonb_build_object('pageId', $3::bigint, 'cause', 'purge')
              WHERE NOT EXISTS (SELECT 1 FROM ${s}.job WHERE job_cmd = 'refreshLinks' AND job_token = '' AND job_namespace = $1 AND job_title = $2)`,
            [j.ns, j.dbkey, j.pageId],
          );
        }
      }
      purged.push(text);
    });
  }
  return { purged };
}
