/*
 * MovePage of MediaWiki 1.39: renames the page row (its id, history and protections go with it),
 * records a null revision on it, leaves a redirect at the old title (unless `noredirect` with the
 * `suppressredirect` right), may replace a single-revision redirect at the target, and writes the
 * move log entry and its recent change. Each page moved is one transaction; the talk page and
 * subpages are moved after the page itself, each on its own, as MediaWiki does.
 */
import { copyWatchers } from '../../store/merge-history.js';
import { alreadyExists, invalidArgument, notFound, ServiceError, type Queryable } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/common';
import type { MovedPage, MovePageRequest, MovePageResponse } from '@quire/proto/wiki/content/edit/v1/edit';
import { redirectTarget } from '../../content/wikitext.js';
import { parsePageTitleOrThrow } from '../../title/page-title.js';
import { lockExistingPage, lockPage, saveNullRevision } from '../../store/lifecycle/common.js';
import { archivePage } from '../../store/lifecycle/delete.js';
import { renamePage, singleRevisionRedirectTarget, subpageTitles } from '../../store/lifecycle/move.js';
import { publishLogEntry, nowToTheSecond } from '../../store/logging.js';
import { pageRestrictions } from '../../store/protection.js';
import { checkTitlePermissions } from '../protection.js';
import { defaultModelFor } from '../../edit/models.js';
import { recordPageChange } from '../../store/page-cache.js';
import { saveRevision } from '../../store/save.js';
import { findPage } from '../../store/pages.js';
import { applyRequestedWatch, requireActor, authorize, requireMoveRight, requireRight, targetOf, userOf, type LifecycleDeps } from './common.js';
import { interfaceMessages } from '../interface-messages.js';

interface Title {
  ns: number;
  dbkey: string;
}

/** Whether the page at the target may be replaced: a redirect with one revision, pointing to the source. */
async function replaceableRedirect(deps: LifecycleDeps, q: Queryable, pageId: number, from: Title): Promise<boolean> {
  const row = await singleRevisionRedirectTarget(q, deps.db.schema, pageId);
  return row !== undefined && row.n === 1 && row.rd_namespace === from.ns && row.rd_title === from.dbkey;
}

/** One page moved, in one transaction; `watch`: apply the request's watchlist to both titles (the page itself, not its talk page or subpages, as ApiMove). */
async function moveOne(deps: LifecycleDeps, actor: EditActor, from: Title, to: Title, req: MovePageRequest, watch = false): Promise<MovedPage> {
  const { codec, db } = deps;
  const s = db.schema;
  const fromText = codec.prefixedText(from.ns, from.dbkey);
  const toText = codec.prefixedText(to.ns, to.dbkey);
  if (from.ns === to.ns && from.dbkey === to.dbkey) throw invalidArgument('selfmove', 'The title is the same;\ncannot move a page over itself.');
  if (from.ns < 0 || to.ns < 0) throw invalidArgument('immobilenamespace', 'You cannot move pages to or from this namespace.');
  const suppress = req.noRedirect && actor.rights.includes('suppressredirect');
  return db.tx(async (q) => {
    const page = await lockExistingPage(q, db, from.ns, from.dbkey);
    // MovePage::authorizeInternal: move and edit of the old title, move-target and edit of the new one.
    const known = { pageId: page.id };
    await checkTitlePermissions(q, db, codec, from, 'move', actor, { model: page.model, known });
    await checkTitlePermissions(q, db, codec, from, 'edit', actor, { model: page.model, known });
    await checkTitlePermissions(q, db, codec, to, 'move-target', actor, { model: defaultModelFor(to.ns, to.dbkey) });
    const existing = await lockPage(q, db, to.ns, to.dbkey);
    let overRedirect = false;
    if (existing) {
      if (!(await replaceableRedirect(deps, q, existing.id, from))) {
        throw alreadyExists('articleexists', 'A page of that name already exists, or the name you have chosen is not valid. Please choose another name.');
      }
      if (!actor.rights.includes('delete')) {
        // MovePage: replacing the redirect deletes it, which needs the delete right.
        throw alreadyExists('articleexists', 'A page of that name already exists, or the name you have chosen is not valid. Please choose another name.');
      }
      await archivePage(deps, q, existing);
      overRedirect = true;
    }
    const timestamp = nowToTheSecond();
    await renamePage(q, s, page.id, to, timestamp);
    await recordPageChange(db, q, from.ns, from.dbkey);
    await recordPageChange(db, q, to.ns, to.dbkey);
    // MovePage::moveUnsafe: whoever watches the old title (or its talk page) watches the new one
    // (WatchedItemStore::duplicateAllAssociatedEntries), unless only the namespace's talk side changed.
    if (subjectOf(from.ns) !== subjectOf(to.ns) || from.dbkey !== to.dbkey) await copyWatchers(q, db, from, to);
    // MovePage::moveToInternal: the move log entry's plain action text (logentry-move-move or
    // logentry-move-move_redir, the titles as links), then the reason, in the wiki's messages.
    const msg = await interfaceMessages(db, ['logentry-move-move', 'logentry-move-move_redir', 'colon-separator']);
    let comment = msg(overRedirect ? 'logentry-move-move_redir' : 'logentry-move-move', actor.name, actor.name, `[[${fromText}]]`, `[[${toText}]]`);
    if (req.reason !== '') comment += msg('colon-separator') + req.reason;
    const nullRev = await saveNullRevision(q, db, codec, page, to, actor, comment, timestamp);
    let redirectCreated = false;
    if (!suppress) {
      // The redirect left behind: a new page at the old title (no recent change of its own).
      const text = `#REDIRECT [[${toText}]]`;
      if (redirectTarget(codec, text)) {
        await saveRevision(db, codec, {
          ns: from.ns,
          dbkey: from.dbkey,
          baseRevId: 0,
          text,
          contentModel: 'wikitext',
          contentFormat: 'text/x-wiki',
          user: userOf(actor),
          comment,
          minor: false,
          tags: ['mw-new-redirect'],
          timestamp,
          nullRevision: true,
          creationLog: false,
        });
        redirectCreated = true;
      }
    }
    await publishLogEntry(
      q,
      db,
      {
        type: 'move',
        action: overRedirect ? 'move_redir' : 'move',
        actor: userOf(actor),
        ns: from.ns,
        dbkey: from.dbkey,
        pageId: page.id,
        comment: req.reason,
        params: { target_ns: to.ns, target_title: toText, suppressredirect: suppress },
        tags: req.tags,
        timestamp,
      },
      { revId: nullRev.revId },
    );
    if ((await pageRestrictions(q, db, page.id)).length > 0) {
      await publishLogEntry(q, db, {
        type: 'protect',
        action: 'move_prot',
        actor: userOf(actor),
        ns: to.ns,
        dbkey: to.dbkey,
        pageId: page.id,
        comment: `[[${fromText}]] moved to [[${toText}]]${req.reason !== '' ? `: ${req.reason}` : ''}`,
        params: { oldtitle_ns: from.ns, oldtitle_title: fromText },
        timestamp,
      });
    }
    if (watch) {
      await applyRequestedWatch(deps, q, actor, from, req);
      await applyRequestedWatch(deps, q, actor, to, req);
    }
    return { from: fromText, to: toText, redirectCreated, moveOverRedirect: overRedirect, errorCode: '', errorInfo: '' };
  });
}

/** A move of a talk page or subpage: its failure is reported, not thrown. */
async function moveReported(deps: LifecycleDeps, actor: EditActor, from: Title, to: Title, req: MovePageRequest): Promise<MovedPage> {
  try {
    return await moveOne(deps, actor, from, to, req);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return {
      from: deps.codec.prefixedText(from.ns, from.dbkey),
      to: deps.codec.prefixedText(to.ns, to.dbkey),
      redirectCreated: false,
      moveOverRedirect: false,
      errorCode: e.mwCode,
      errorInfo: e.message,
    };
  }
}

const talkOf = (ns: number) => (ns % 2 === 0 ? ns + 1 : ns);
const subjectOf = (ns: number) => (ns % 2 === 1 ? ns - 1 : ns);

/** $wgMaximumMovedPages: at most 100 subpages move with a page. */
const subpagesOf = (deps: LifecycleDeps, t: Title) => subpageTitles(deps.db, t, 100);

export async function movePage(deps: LifecycleDeps, req: MovePageRequest): Promise<MovePageResponse> {
  const actor = requireActor(req.actor);
  // ApiMove validates both titles and the source's existence before any permission check.
  const from = await targetOf(deps, req.from, req.fromId);
  if (!(await findPage(deps.db, deps.db.schema, from))) throw notFound('missingtitle', "The page you specified doesn't exist.");
  const toParsed = parsePageTitleOrThrow(deps.codec, req.to);
  const to = { ns: toParsed.ns, dbkey: toParsed.dbkey };
  requireMoveRight(actor);
  await authorize(deps, actor, 'move', req.tags);
  if (req.moveSubpages) requireRight(actor, 'move-subpages');
  const page = await moveOne(deps, actor, from, to, req, true);
  const res: MovePageResponse = { page, subpages: [], talkSubpages: [] };
  const fromTalk = { ns: talkOf(from.ns), dbkey: from.dbkey };
  const toTalk = { ns: talkOf(to.ns), dbkey: to.dbkey };
  const talkExists = from.ns !== fromTalk.ns && (await findPage(deps.db, deps.db.schema, fromTalk)) !== undefined;
  if (req.moveTalk && talkExists && subjectOf(from.ns) === from.ns && subjectOf(to.ns) === to.ns) {
    res.talk = await moveReported(deps, actor, fromTalk, toTalk, req);
  }
  if (req.moveSubpages) {
    for (const sub of await subpagesOf(deps, from)) {
      res.subpages.push(await moveReported(deps, actor, { ns: from.ns, dbkey: sub }, { ns: to.ns, dbkey: to.dbkey + sub.slice(from.dbkey.length) }, req));
    }
    if (res.talk) {
      for (const sub of await subpagesOf(deps, fromTalk)) {
        res.talkSubpages.push(await moveReported(deps, actor, { ns: fromTalk.ns, dbkey: sub }, { ns: toTalk.ns, dbkey: toTalk.dbkey + sub.slice(from.dbkey.length) }, req));
      }
    }
  }
  return res;
}
