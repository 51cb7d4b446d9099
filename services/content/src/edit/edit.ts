import crypto from 'node:crypto';
import {
  alreadyExists,
  conflict,
  invalidArgument,
  notFound,
  permissionDenied,
  ServiceError,
  type Db,
} from '@quire/kit';
import type { EditActor, EditRequest, EditResponse } from '@quire/proto/wiki/content/v1/content';
import { sha1Base36 } from '../content/sha1.js';
import { MalformedTitleError, type TitleCodec } from '../title/codec.js';
import { NS_MEDIAWIKI, NS_PROJECT } from '../title/namespaces.js';
import { isoTimestamp } from '../rpc/records.js';
import type { RevisionRow, RevisionStore } from '../store/revisions.js';
import { enforceRateLimit, type RateLimiter } from '../store/ratelimit.js';
import type { WikitextPst } from '../rpc/render-extra.js';
import { checkProtection } from '../store/protection.js';
import { nowToTheSecond } from '../store/logging.js';
import { saveRevision } from '../store/save.js';
import { applyWatchlistParam, type WatchlistMode } from '../store/watchlist.js';
import { describeChange } from './change-type.js';
import { merge3 } from './merge.js';
import { defaultFormat, defaultModelFor, isContentModel, prepareContent, supportsSections, type ContentModel } from './models.js';
import { getSection, replaceSection, stripSectionName } from './sections.js';
import { checkApplicableTags } from './tags.js';

/*
 * action=edit in the content service: MediaWiki's ApiEditPage + EditPage::internalAttemptSave,
 * in their order of checks. Each attempt runs in one transaction that first locks the page row,
 * so the text an edit computes (append, section, undo, merge) is always computed against the
 * revision it is saved on top of: concurrent edits of one page queue up, and one whose base went
 * stale meanwhile is merged onto the new latest revision or refused with `editconflict`.
 */

export interface EditDeps {
  db: Db;
  codec: TitleCodec;
  revisions: RevisionStore;
  limiter: RateLimiter;
  /** The pre-save transform of wikitext (signatures, subst:, pipe trick). */
  pst: WikitextPst;
}

/** Attempts of one edit: a page created concurrently by another edit makes the next attempt an update. */
const MAX_ATTEMPTS = 3;
/** $wgManualRevertSearchRadius: how many earlier revisions a manual revert may restore. */
const MANUAL_REVERT_RADIUS = 15;

interface LockedPage {
  id: number;
  model: ContentModel;
  latest: RevisionRow & { content: string };
}

interface Target {
  ns: number;
  dbkey: string;
}

const has = (actor: EditActor, right: string) => actor.rights.includes(right);

/** MediaWiki's badaccess-groups for `edit`, with the default groups that grant it. */
function permissionDeniedEdit(codec: TitleCodec): ServiceError {
  const project = codec.namespaces.get(NS_PROJECT)?.name ?? 'Project';
  return permissionDenied('permissiondenied', `The action you have requested is limited to users in the group: [[${project}:Users|Users]].`);
}

function parseTarget(codec: TitleCodec, title: string): Target {
  try {
    const t = codec.parse(title);
    if (t.dbkey === '') throw new MalformedTitleError('title-invalid-empty', title);
    if (t.ns < 0) throw invalidArgument('pagecannotexist', "Namespace doesn't allow actual pages.");
    return { ns: t.ns, dbkey: t.dbkey };
  } catch (e) {
    if (!(e instanceof MalformedTitleError)) throw e;
    throw invalidArgument('invalidtitle', `Bad title "${title}".`);
  }
}

async function lockPage(deps: EditDeps, target: Target): Promise<LockedPage | undefined> {
  const r = await deps.db.query<{ page_id: number; page_content_model: string }>(
    `SELECT page_id, page_content_model FROM ${deps.db.schema}.page WHERE page_namespace = $1 AND page_title = $2 FOR UPDATE`,
    [target.ns, target.dbkey],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const [latest] = await deps.revisions.latestOf([row.page_id], true);
  if (!latest || latest.content === undefined) throw new Error(`page ${row.page_id} has no latest revision`);
  const model = isContentModel(row.page_content_model) ? row.page_content_model : 'wikitext';
  return { id: row.page_id, model, latest: { ...latest, content: latest.content } };
}

async function revisionWithContent(deps: EditDeps, id: number): Promise<(RevisionRow & { content: string }) | undefined> {
  const [rev] = await deps.revisions.byIds([id], true);
  return rev && rev.content !== undefined && (rev.deleted & 1) === 0 ? { ...rev, content: rev.content } : undefined;
}

/** RevisionStore::getPreviousRevision: the revision before `rev` on its page. */
async function previousRevision(deps: EditDeps, rev: RevisionRow): Promise<number | undefined> {
  const r = await deps.db.query<{ rev_id: number }>(
    `SELECT rev_id FROM ${deps.db.schema}.revision WHERE rev_page = $1 AND rev_id < $2 ORDER BY rev_id DESC LIMIT 1`,
    [rev.pageId, rev.id],
  );
  return r.rows[0]?.rev_id;
}

/** RevisionStore::getNextRevision. */
async function nextRevisionId(deps: EditDeps, rev: RevisionRow): Promise<number | undefined> {
  const r = await deps.db.query<{ rev_id: number }>(
    `SELECT rev_id FROM ${deps.db.schema}.revision WHERE rev_page = $1 AND rev_id > $2 ORDER BY rev_id ASC LIMIT 1`,
    [rev.pageId, rev.id],
  );
  return r.rows[0]?.rev_id;
}

/** The revision of a page saved at a time (the base of an edit given by basetimestamp). */
async function revisionAt(deps: EditDeps, pageId: number, timestamp: Date): Promise<number | undefined> {
  const r = await deps.db.query<{ rev_id: number }>(
    `SELECT rev_id FROM ${deps.db.schema}.revision WHERE rev_page = $1 AND rev_timestamp = $2 ORDER BY rev_id DESC LIMIT 1`,
    [pageId, timestamp],
  );
  return r.rows[0]?.rev_id;
}

/** RevisionStore::userWasLastToEdit: every revision after `since` is by this registered user. */
async function userWasLastToEdit(deps: EditDeps, pageId: number, userId: number, since: Date): Promise<boolean> {
  if (userId === 0) return false;
  const r = await deps.db.query<{ actor_user: number | null }>(
    `SELECT a.actor_user FROM ${deps.db.schema}.revision r JOIN ${deps.db.schema}.actor a ON a.actor_id = r.rev_actor
      WHERE r.rev_page = $1 AND r.rev_timestamp > $2 ORDER BY r.rev_timestamp ASC LIMIT 50`,
    [pageId, since],
  );
  return r.rows.every((row) => row.actor_user === userId);
}

/** An edit restoring the content of one of the last revisions before the current one (mw-manual-revert). */
async function restoresEarlierRevision(deps: EditDeps, page: LockedPage, sha1: string): Promise<boolean> {
  const r = await deps.db.query<{ rev_sha1: string }>(
    `SELECT rev_sha1 FROM ${deps.db.schema}.revision WHERE rev_page = $1 AND rev_id < $2 ORDER BY rev_id DESC LIMIT ${MANUAL_REVERT_RADIUS}`,
    [page.id, page.latest.id],
  );
  return r.rows.some((row) => row.rev_sha1 === sha1);
}

/** Follows a redirect page once (redirect=1), as ApiEditPage does before editing. */
async function followRedirect(deps: EditDeps, target: Target): Promise<{ target: Target; from: string; to: string } | undefined> {
  const s = deps.db.schema;
  const r = await deps.db.query<{ rd_namespace: number; rd_title: string; rd_fragment: string; rd_interwiki: string }>(
    `SELECT rd.rd_namespace, rd.rd_title, rd.rd_fragment, rd.rd_interwiki FROM ${s}.page p JOIN ${s}.redirect rd ON rd.rd_from = p.page_id
      WHERE p.page_namespace = $1 AND p.page_title = $2 AND p.page_is_redirect`,
    [target.ns, target.dbkey],
  );
  const rd = r.rows[0];
  if (!rd) return undefined;
  const from = deps.codec.prefixedText(target.ns, target.dbkey);
  const to = deps.codec.prefixedText(rd.rd_namespace, rd.rd_title);
  if (rd.rd_namespace < 0 || rd.rd_interwiki !== '') {
    // MediaWiki reports the redirect with the error (`data.api` is what clients see).
    throw invalidArgument('edit-invalidredirect', `Cannot edit "${from}" while following redirects, as target "${to}" is not valid.`, {
      api: { redirects: { from, to } },
    });
  }
  return { target: { ns: rd.rd_namespace, dbkey: rd.rd_title }, from, to };
}

/** The page an edit names: title or page id (the gateway makes sure exactly one is given). */
async function resolveTarget(deps: EditDeps, req: EditRequest): Promise<Target> {
  if (req.pageId > 0) {
    const r = await deps.db.query<{ page_namespace: number; page_title: string }>(
      `SELECT page_namespace, page_title FROM ${deps.db.schema}.page WHERE page_id = $1`,
      [req.pageId],
    );
    const row = r.rows[0];
    if (!row) throw invalidArgument('nosuchpageid', `There is no page with ID ${req.pageId}.`);
    return { ns: row.page_namespace, dbkey: row.page_title };
  }
  return parseTarget(deps.codec, req.title);
}

/** The watchlist expiry of an edit (the gateway validated it): "" is indefinitely. */
function watchlistExpiry(value: string): Date | undefined {
  return value === '' ? undefined : new Date(value);
}

const ISO_SECOND = (d: Date) => Math.floor(d.getTime() / 1000);

function parseTimestamp(value: string, name: string): Date | undefined {
  if (value === '') return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw invalidArgument('badtimestamp', `Invalid value "${value}" for timestamp parameter "${name}".`);
  return d;
}

/** MediaWiki's undo (ContentHandler::getUndoContent): the changes of undoafter..undo taken back from the current text. */
async function undoText(deps: EditDeps, req: EditRequest, page: LockedPage | undefined, prefixedTitle: string) {
  const undoRev = await revisionWithContent(deps, req.undo);
  if (!undoRev) throw invalidArgument('nosuchrevid', `There is no revision with ID ${req.undo}.`);
  const afterId = req.undoAfter > 0 ? req.undoAfter : await previousRevision(deps, undoRev);
  const afterRev = afterId !== undefined ? await revisionWithContent(deps, afterId) : undefined;
  if (!afterRev) throw invalidArgument('nosuchrevid', `There is no revision with ID ${req.undoAfter}.`);
  for (const rev of [undoRev, afterRev]) {
    if (!page || rev.pageId !== page.id) throw invalidArgument('revwrongpage', `r${rev.id} is not a revision of ${prefixedTitle}.`);
  }
  const current = page!.latest;
  const text =
    current.id === undoRev.id || current.content === undoRev.content ? afterRev.content : merge3(undoRev.content, afterRev.content, current.content);
  if (text === undefined) throw invalidArgument('undofailure', 'The edit could not be undone due to conflicting intermediate edits.');
  // A summary is made only when exactly one revision is undone.
  const single = (await nextRevisionId(deps, afterRev)) === undoRev.id;
  const summary = single
    ? `Undo revision ${undoRev.id} by [[Special:Contributions/${undoRev.userText}|${undoRev.userText}]] ([[User talk:${undoRev.userText}|talk]])`
    : undefined;
  return { text, summary, model: isContentModel(afterRev.contentModel) ? afterRev.contentModel : page!.model };
}

interface AttemptState {
  rateLimited: boolean;
}

/** An edit's outcome before the watchlist parameter is applied (in the same transaction). */
type SavedEdit = Omit<EditResponse, 'watched' | 'watchlistExpiry'>;

async function attemptEdit(deps: EditDeps, req: EditRequest, actor: EditActor, target: Target, state: AttemptState): Promise<SavedEdit> {
  const { codec } = deps;
  const page = await lockPage(deps, target);
  const prefixedTitle = codec.prefixedText(target.ns, target.dbkey);
  const pageModel = page?.model ?? defaultModelFor(target.ns, target.dbkey);

  // The content model and format (ApiEditPage).
  if (req.contentModel !== '' && !isContentModel(req.contentModel)) {
    throw invalidArgument('badvalue', `Unrecognized value for parameter "contentmodel": ${req.contentModel}.`);
  }
  let model: ContentModel = req.contentModel !== '' ? (req.contentModel as ContentModel) : pageModel;
  const format = req.contentFormat || defaultFormat(model);
  if (format !== defaultFormat(model)) {
    throw invalidArgument('badformat', `The requested format ${format} is not supported for content model ${model} used by ${codec.prefixedDbKey(target.ns, target.dbkey)}.`);
  }
  if (req.createOnly && page) throw alreadyExists('articleexists', 'The article you tried to create has been created already.');
  if (req.noCreate && !page) throw notFound('missingtitle', "The page you specified doesn't exist.");
  if (!has(actor, 'edit')) throw permissionDeniedEdit(codec);
  const protection = codec.namespaces.get(target.ns)?.protection ?? '';
  if (protection !== '' && !has(actor, protection)) {
    throw target.ns === NS_MEDIAWIKI
      ? permissionDenied(
          'protectednamespace-interface',
          'This page provides interface text for the software on this wiki, and is protected to prevent abuse.\nTo add or change translations for all wikis, please use [https://translatewiki.net/ translatewiki.net], the MediaWiki localisation project.',
        )
      : permissionDenied('protectednamespace', `You do not have permission to edit pages in the ${codec.namespaces.get(target.ns)?.name ?? ''} namespace.`);
  }
  // Page, cascading and create protection (PermissionManager's checks, in its order).
  await checkProtection(deps.db, deps.db, codec, target, 'edit', actor.rights);
  if (!page && !req.recreate) {
    // EditPage::wasDeletedSinceLastEdit: the page was deleted after the editor started editing.
    const start = parseTimestamp(req.startTimestamp, 'starttimestamp') ?? new Date();
    const deleted = await deps.db.query(
      `SELECT 1 FROM ${deps.db.schema}.logging WHERE log_namespace = $1 AND log_title = $2 AND log_type = 'delete' AND log_action = 'delete'
         AND log_timestamp > $3 AND EXISTS (SELECT 1 FROM ${deps.db.schema}.archive WHERE ar_namespace = $1 AND ar_title = $2) LIMIT 1`,
      [target.ns, target.dbkey, new Date(Math.floor(start.getTime() / 1000) * 1000)],
    );
    if (deleted.rows.length > 0) throw conflict('pagedeleted', 'The page has been deleted since you fetched its timestamp.');
  }

  // The text: appended/prepended to the page or a section, or given whole.
  let text = req.text ?? '';
  let md5Input = req.text ?? '';
  const relative = req.appendText !== undefined || req.prependText !== undefined;
  if (relative) {
    let base = page?.latest.content ?? '';
    if (req.section !== undefined) {
      if (!supportsSections(model)) throw invalidArgument('sectionsnotsupported', `Sections are not supported for content model ${model}.`);
      if (req.section === 'new') base = '';
      else {
        const section = getSection(base, req.section);
        if (section === undefined) throw invalidArgument('nosuchsection', `There is no section ${req.section}.`);
        base = section;
      }
    }
    text = (req.prependText ?? '') + base + (req.appendText ?? '');
    md5Input = (req.prependText ?? '') + (req.appendText ?? '');
  }
  let summary = req.summary;
  const tags: string[] = [...req.tags];
  let undoModelChange = false;
  if (req.undo > 0) {
    const undo = await undoText(deps, req, page, prefixedTitle);
    text = undo.text;
    if (req.contentModel === '' && req.contentFormat === '') {
      undoModelChange = undo.model !== model;
      model = undo.model;
    }
    summary ??= undo.summary;
    tags.push('mw-undo');
  }
  if (req.md5 !== undefined && crypto.createHash('md5').update(md5Input, 'utf8').digest('hex') !== req.md5) {
    throw invalidArgument('badmd5', 'The supplied MD5 hash was incorrect.');
  }
  if (req.section !== undefined) {
    if (!/^((T-)?\d+|new)$/.test(req.section)) throw invalidArgument('invalidsection', 'The "section" parameter must be a valid section ID or "new".');
    if (req.section !== '0' && req.section !== 'new' && (!page || getSection(page.latest.content, req.section) === undefined)) {
      throw invalidArgument('nosuchsection', `There is no section ${req.section}.`);
    }
  }
  if (req.tags.length > 0) await checkApplicableTags(deps.db, actor, req.tags);

  // EditPage's constraints.
  if (model !== pageModel && !undoModelChange && !has(actor, 'editcontentmodel')) {
    throw permissionDenied('cantchangecontentmodel', "You don't have permission to change the content model of a page.");
  }
  const isTalk = target.ns > 0 && target.ns % 2 === 1;
  if (!page && !has(actor, isTalk ? 'createtalk' : 'createpage')) {
    throw actor.id === 0
      ? permissionDenied(
          'cantcreate-anon',
          `${codec.namespaces.get(NS_PROJECT)?.name ?? ''} has restricted the ability to create new pages.\nYou can go back and edit an existing page, or [[Special:UserLogin|log in or create an account]].`,
        )
      : permissionDenied('cantcreate', 'You do not have permission to create new pages.');
  }
  if (!state.rateLimited) {
    state.rateLimited = true;
    await enforceRateLimit(deps.limiter, 'edit', actor);
  }
  const maxBytes = req.maxArticleSizeKb * 1024;
  const tooBig = () =>
    invalidArgument(
      'contenttoobig',
      `The content you supplied exceeds the article size limit of ${req.maxArticleSizeKb} ${req.maxArticleSizeKb === 1 ? 'kibibyte' : 'kibibytes'}.`,
    );
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw tooBig();

  // Section and summary of a new section (EditPage::newSectionSummary).
  let sectionTitle = req.sectionTitle;
  if (req.section === 'new') {
    if (sectionTitle !== undefined) {
      if ((summary ?? '') === '') summary = `/* ${stripSectionName(sectionTitle)} */ new section`;
    } else if ((summary ?? '') !== '') {
      sectionTitle = summary;
      summary = `/* ${stripSectionName(summary!)} */ new section`;
    }
  }
  const section = req.section === undefined ? undefined : req.section;

  // Conflict detection and merge, against the locked latest revision.
  let content: string;
  let merged = false;
  if (!page) {
    content = section === 'new' ? (replaceSection('', 'new', text, sectionTitle) ?? text) : text;
  } else {
    const latest = page.latest;
    const baseTime = parseTimestamp(req.baseTimestamp, 'basetimestamp');
    // ApiEditPage: without basetimestamp and baserevid the page's current time is the base.
    const editTime = baseTime ?? (req.baseRevId > 0 ? undefined : latest.timestamp);
    const editRevId = req.baseRevId > 0 ? req.baseRevId : undefined;
    let isConflict =
      (editTime !== undefined && ISO_SECOND(editTime) !== ISO_SECOND(latest.timestamp)) || (editRevId !== undefined && editRevId !== latest.id);
    if (isConflict && section === 'new') {
      // A new comment never conflicts, unless it repeats the last edit (a resent request).
      isConflict = latest.userText === actor.name && latest.comment === (summary ?? '');
    } else if (isConflict && section === undefined && baseTime && (await userWasLastToEdit(deps, page.id, actor.id, baseTime))) {
      isConflict = false; // no conflict with one's own later edits
    }
    if (!isConflict) {
      const replaced = replaceSection(latest.content, section, text, sectionTitle);
      if (replaced === undefined) throw conflict('editconflict', 'Edit conflict.');
      content = replaced;
    } else {
      const baseId = editRevId ?? (editTime ? await revisionAt(deps, page.id, editTime) : undefined);
      const base = baseId !== undefined ? await revisionWithContent(deps, baseId) : undefined;
      const mine = base && base.pageId === page.id ? replaceSection(base.content, section, text, sectionTitle) : undefined;
      const result = base && mine !== undefined ? merge3(base.content, mine, latest.content) : undefined;
      if (result === undefined) throw conflict('editconflict', 'Edit conflict.');
      content = result;
      merged = true;
    }
    if (section === 'new' && text.trim() === '') throw invalidArgument('emptynewsection', 'Creating empty new sections is not possible.');
  }
  if (Buffer.byteLength(content, 'utf8') > maxBytes) throw tooBig();
  // The save's time, for the revision and the signatures in its text alike.
  const now = nowToTheSecond();
  // DerivedPageDataUpdater::prepareContent: the pre-save transform of the page's whole new text
  // (after section replacement and merge, before the nochange check); md5 was checked against
  // the text as sent. Other models only get their line endings normalized.
  content =
    model === 'wikitext'
      ? await deps.pst(content, target, { name: actor.name, anonymous: actor.id === 0 }, now)
      : prepareContent(model, content);

  const title = codec.prefixedText(target.ns, target.dbkey);
  const dbkey = codec.prefixedDbKey(target.ns, target.dbkey);
  if (page && content === page.latest.content && model === page.model) {
    return {
      created: false,
      nochange: true,
      pageId: page.id,
      title,
      dbkey,
      contentModel: model,
      oldRevId: page.latest.id,
      newRevId: page.latest.id,
      newTimestamp: isoTimestamp(page.latest.timestamp),
      merged: false,
      content,
    };
  }

  const old = page ? { model: page.model, text: page.latest.content } : undefined;
  const change = describeChange(codec, old, { model, text: content });
  if (change.tag) tags.push(change.tag);
  if (page && req.undo === 0 && (await restoresEarlierRevision(deps, page, sha1Base36(content)))) tags.push('mw-manual-revert');

  const saved = await saveRevision(deps.db, codec, {
    ns: target.ns,
    dbkey: target.dbkey,
    baseRevId: page?.latest.id ?? 0,
    text: content,
    contentModel: model,
    contentFormat: defaultFormat(model),
    user: { id: actor.id, name: actor.name },
    comment: summary || change.autoSummary,
    // EditPage: minor only on existing pages and with minoredit; bot only with the bot right.
    minor: req.minor && !req.notMinor && page !== undefined && has(actor, 'minoredit'),
    bot: req.bot && has(actor, 'bot'),
    autopatrol: has(actor, 'autopatrol'),
    tags,
    timestamp: now,
  });
  return {
    created: saved.created,
    nochange: false,
    pageId: saved.pageId,
    title,
    dbkey,
    contentModel: model,
    oldRevId: saved.parentId,
    newRevId: saved.revId,
    newTimestamp: isoTimestamp(saved.timestamp),
    merged,
    content,
  };
}

/** Runs one edit; see the file comment. */
export async function editPage(deps: EditDeps, req: EditRequest): Promise<EditResponse> {
  const actor = req.actor;
  if (!actor) throw invalidArgument('missingparam', 'The edit has no actor.');
  if (req.redirect && req.prependText === undefined && req.appendText === undefined && req.section !== 'new') {
    throw invalidArgument(
      'redirect-appendonly',
      'You have attempted to edit using the redirect-following mode, which must be used in conjunction with section=new, prependtext, or appendtext.',
    );
  }
  let target = await resolveTarget(deps, req);
  const followed = req.redirect ? await followRedirect(deps, target) : undefined;
  if (followed) target = followed.target;
  const state: AttemptState = { rateLimited: false };
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await deps.db.tx(async (q): Promise<EditResponse> => {
        const saved = await attemptEdit(deps, req, actor, target, state);
        const watch = await applyWatchlistParam(q, deps.db, actor.id, target, req.watchlist as WatchlistMode, req.watchByPreference, watchlistExpiry(req.watchlistExpiry));
        return { ...saved, watched: watch.watched, watchlistExpiry: watch.expiry ? isoTimestamp(watch.expiry) : '' };
      });
      return followed ? { ...res, redirect: { from: followed.from, to: followed.to, tofragment: '' } } : res;
    } catch (e) {
      // The page was created by a concurrent edit after this one found it missing. An edit
      // relative to the current text is redone on the new page; a whole text based on "no page"
      // is a conflict.
      const raced = e instanceof ServiceError && e.mwCode === 'articleexists' && !req.createOnly;
      if (!raced || attempt >= MAX_ATTEMPTS) throw e;
      const relative = req.appendText !== undefined || req.prependText !== undefined || req.section === 'new';
      if (!relative) throw conflict('editconflict', 'Edit conflict.');
    }
  }
}
