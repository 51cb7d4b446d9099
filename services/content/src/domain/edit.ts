import crypto from 'node:crypto';
import { alreadyExists, conflict, invalidArgument, notFound, permissionDenied, ServiceError, type Db } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/common';
import { type EditRequest, EditResponse } from '@quire/proto/wiki/content/edit/v1/edit';
import { sha1Base36 } from '../content/sha1.js';
import { MalformedTitleError, type TitleCodec } from '../title/codec.js';
import { NS_PROJECT } from '../title/namespaces.js';
import { isoTimestamp } from '../content/timestamp.js';
import type { RevisionRow, RevisionStore } from '../store/revisions.js';
import { enforceRateLimit, type RateLimiter } from '../store/ratelimit.js';
import { checkTitlePermissions, checkTitleRules } from './protection.js';
import type { PageProtection } from '../store/protection.js';
import { deletedSince, nowToTheSecond } from '../store/logging.js';
import { findPage, redirectOfTitle } from '../store/pages.js';
import { saveRevision, saveRevisionOnBase, type SaveRevisionInput } from '../store/save.js';
import { applyWatchlistParam, plannedWatch, type WatchlistMode, type WatchState } from '../store/watchlist.js';
import { describeChange } from '../edit/change-type.js';
import { merge3 } from '../edit/merge.js';
import { defaultFormat, defaultModelFor, isContentModel, prepareContent, supportsSections, type ContentModel } from '../edit/models.js';
import { getSection, replaceSection, stripSectionName } from '../edit/sections.js';
import { checkApplicableTags } from './tags.js';
import type { WikitextPst } from './render.js';
import { interfaceMessages, isMessageKey } from './interface-messages.js';

/*
 * action=edit in the content service: MediaWiki's ApiEditPage + EditPage::internalAttemptSave,
 * in their order of checks. As MediaWiki's DerivedPageDataUpdater, an attempt first *prepares*
 * the edit outside any transaction — checks, the new text (append, section, undo, merge against
 * the page's latest revision as read then) and its pre-save transform, which renders — and only
 * then saves it in one transaction whose compare-and-set (`saveRevision`: the page row locked,
 * its latest revision still the one prepared on) holds the row lock for the writes alone. When
 * another edit was saved in between, the attempt is prepared again on the new latest revision,
 * so its base is merged onto it or refused with `editconflict`: never a lost update.
 */

export interface EditDeps {
  db: Db;
  codec: TitleCodec;
  revisions: RevisionStore;
  limiter: RateLimiter;
  /** The pre-save transform of wikitext (signatures, subst:, pipe trick). */
  pst: WikitextPst;
}

/**
 * Attempts of one edit. An attempt is prepared again only when another edit of the page was saved
 * (or the page created or deleted) after it was prepared, so every retry means another edit won:
 * the bound only stops a pathological crowd of writers on one page.
 */
const MAX_ATTEMPTS = 32;
/** $wgManualRevertSearchRadius: how many earlier revisions a manual revert may restore. */
const MANUAL_REVERT_RADIUS = 15;

/** The page as an attempt is prepared on: its latest revision with the text. */
interface CurrentPage {
  id: number;
  model: ContentModel;
  latest: RevisionRow & { content: string };
  /** SHA-1s of the revisions before the latest (MANUAL_REVERT_RADIUS of them), newest first. */
  sha1sBefore: string[];
  /** Whether the editor watches the page, as read with it. */
  watch: WatchState;
  /** Its protection, read with it. */
  protection: PageProtection;
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

/** The page, its latest revision with text, what a manual revert may restore and the editor's watch: one statement. */
async function currentPage(deps: EditDeps, target: Target, userId: number): Promise<CurrentPage | undefined> {
  const row = await deps.revisions.pageForEdit(target.ns, target.dbkey, MANUAL_REVERT_RADIUS, userId);
  if (!row) return undefined;
  const latest = row.latest;
  if (!latest || latest.content === undefined) throw new Error(`page ${row.pageId} has no latest revision`);
  const model = isContentModel(row.model) ? row.model : 'wikitext';
  return { id: row.pageId, model, latest: { ...latest, content: latest.content }, sha1sBefore: row.sha1sBefore, watch: row.watch, protection: row.protection };
}

async function revisionWithContent(deps: EditDeps, id: number): Promise<(RevisionRow & { content: string }) | undefined> {
  const [rev] = await deps.revisions.byIds([id], true);
  return rev && rev.content !== undefined && (rev.deleted & 1) === 0 ? { ...rev, content: rev.content } : undefined;
}

/**
 * RevisionStore::userWasLastToEdit: every revision after the base is by this registered user.
 * With a base revision id the revisions after it are exact; a base timestamp alone has a
 * second's precision, so another user's revision saved in the base's second would pass as "after
 * nothing" and be overwritten (found by the web UI's same-second conflict probe): the id wins.
 */
async function userWasLastToEdit(deps: EditDeps, pageId: number, userId: number, since: Date, baseRevId: number | undefined): Promise<boolean> {
  if (userId === 0) return false;
  const authors = baseRevId !== undefined ? await deps.revisions.authorIdsAfterRevision(pageId, baseRevId, 50) : await deps.revisions.authorIdsSince(pageId, since, 50);
  return authors.every((author) => author === userId);
}

/** An edit restoring the content of one of the last revisions before the current one (mw-manual-revert). */
function restoresEarlierRevision(page: CurrentPage, sha1: string): boolean {
  return page.sha1sBefore.includes(sha1);
}

/** Follows a redirect page once (redirect=1), as ApiEditPage does before editing. */
async function followRedirect(deps: EditDeps, target: Target): Promise<{ target: Target; from: string; to: string } | undefined> {
  const rd = await redirectOfTitle(deps.db, deps.db.schema, target);
  if (!rd) return undefined;
  const from = deps.codec.prefixedText(target.ns, target.dbkey);
  const to = deps.codec.prefixedText(rd.ns, rd.dbkey);
  if (rd.ns < 0 || rd.interwiki !== '') {
    // MediaWiki reports the redirect with the error (`data.api` is what clients see).
    throw invalidArgument('edit-invalidredirect', `Cannot edit "${from}" while following redirects, as target "${to}" is not valid.`, {
      api: { redirects: { from, to } },
    });
  }
  return { target: { ns: rd.ns, dbkey: rd.dbkey }, from, to };
}

/** The page an edit names: title or page id (the gateway makes sure exactly one is given). */
async function resolveTarget(deps: EditDeps, req: EditRequest): Promise<Target> {
  if (req.pageId > 0) {
    const row = await findPage(deps.db, deps.db.schema, { id: req.pageId });
    if (!row) throw invalidArgument('nosuchpageid', `There is no page with ID ${req.pageId}.`);
    return { ns: row.ns, dbkey: row.dbkey };
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
async function undoText(deps: EditDeps, req: EditRequest, page: CurrentPage | undefined, prefixedTitle: string) {
  const undoRev = await revisionWithContent(deps, req.undo);
  if (!undoRev) throw invalidArgument('nosuchrevid', `There is no revision with ID ${req.undo}.`);
  const afterId = req.undoAfter > 0 ? req.undoAfter : await deps.revisions.neighbourId(undoRev, 'previous');
  const afterRev = afterId !== undefined ? await revisionWithContent(deps, afterId) : undefined;
  if (!afterRev) throw invalidArgument('nosuchrevid', `There is no revision with ID ${req.undoAfter}.`);
  for (const rev of [undoRev, afterRev]) {
    if (!page || rev.pageId !== page.id) throw invalidArgument('revwrongpage', `r${rev.id} is not a revision of ${prefixedTitle}.`);
  }
  const current = page!.latest;
  const text = current.id === undoRev.id || current.content === undoRev.content ? afterRev.content : merge3(undoRev.content, afterRev.content, current.content);
  if (text === undefined) throw invalidArgument('undofailure', 'The edit could not be undone due to conflicting intermediate edits.');
  // A summary is made only when exactly one revision is undone.
  const single = (await deps.revisions.neighbourId(afterRev, 'next')) === undoRev.id;
  // EditPage: the wiki's undo-summary message.
  const summary = single ? (await interfaceMessages(deps.db, ['undo-summary']))('undo-summary', undoRev.id, undoRev.userText) : undefined;
  return { text, summary, model: isContentModel(afterRev.contentModel) ? afterRev.contentModel : page!.model };
}

interface AttemptState {
  rateLimited: boolean;
}

/** An edit's outcome before the watchlist parameter is applied (in the same transaction). */
type SavedEdit = Omit<EditResponse, 'watched' | 'watchlistExpiry' | 'undoSummary'>;

/**
 * An edit ready to save: the revision to write (none when the text is unchanged), and the outcome
 * to answer, whose revision fields the save fills in.
 */
interface PreparedEdit {
  save?: SaveRevisionInput;
  outcome: SavedEdit;
  /** The editor's watch of the page as read when preparing (undefined: the page did not exist). */
  watch?: WatchState;
}

/** Everything of an attempt that comes before the save, outside any transaction (see the file comment). */
async function prepareEdit(deps: EditDeps, req: EditRequest, actor: EditActor, target: Target, state: AttemptState): Promise<PreparedEdit> {
  const { codec } = deps;
  const page = await currentPage(deps, target, actor.id);
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
  // The title's own rules (namespace, site and user CSS/JSON/JS), then page, cascading and create protection.
  await checkTitlePermissions(deps.db, deps.db, codec, target, 'edit', actor, { model: pageModel, known: { pageId: page?.id, protection: page?.protection } });
  if (!page && !req.recreate) {
    // EditPage::wasDeletedSinceLastEdit: the page was deleted after the editor started editing.
    const start = parseTimestamp(req.startTimestamp, 'starttimestamp') ?? new Date();
    if (await deletedSince(deps.db, target, new Date(Math.floor(start.getTime() / 1000) * 1000))) throw conflict('pagedeleted', 'The page has been deleted since you fetched its timestamp.');
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
  // A new model makes another kind of page (a user's JavaScript…): the title's rules with it (ApiEditPage).
  if (model !== pageModel) checkTitleRules(codec, target, model, 'edit', actor);
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
  const tooBig = () => invalidArgument('contenttoobig', `The content you supplied exceeds the article size limit of ${req.maxArticleSizeKb} ${req.maxArticleSizeKb === 1 ? 'kibibyte' : 'kibibytes'}.`);
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

  // Conflict detection and merge, against the latest revision (the save checks it still is).
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
    let isConflict = (editTime !== undefined && ISO_SECOND(editTime) !== ISO_SECOND(latest.timestamp)) || (editRevId !== undefined && editRevId !== latest.id);
    if (isConflict && section === 'new') {
      // A new comment never conflicts, unless it repeats the last edit (a resent request).
      isConflict = latest.userText === actor.name && latest.comment === (summary ?? '');
    } else if (isConflict && section === undefined && baseTime && (await userWasLastToEdit(deps, page.id, actor.id, baseTime, editRevId))) {
      isConflict = false; // no conflict with one's own later edits
    }
    if (!isConflict) {
      const replaced = replaceSection(latest.content, section, text, sectionTitle);
      if (replaced === undefined) throw conflict('editconflict', 'Edit conflict.');
      content = replaced;
    } else {
      const baseId = editRevId ?? (editTime ? await deps.revisions.idAt(page.id, editTime) : undefined);
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
  content = model === 'wikitext' ? await deps.pst(content, target, { name: actor.name, anonymous: actor.id === 0, signature: actor.signature }, now) : prepareContent(model, content);

  const title = codec.prefixedText(target.ns, target.dbkey);
  const dbkey = codec.prefixedDbKey(target.ns, target.dbkey);
  if (page && content === page.latest.content && model === page.model) {
    const outcome: SavedEdit = {
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
    return { outcome, watch: page.watch };
  }

  const old = page ? { model: page.model, text: page.latest.content } : undefined;
  const change = describeChange(codec, old, { model, text: content });
  if (change.tag) tags.push(change.tag);
  if (page && req.undo === 0 && restoresEarlierRevision(page, sha1Base36(content))) tags.push('mw-manual-revert');

  // ContentHandler::getAutosummary: the wiki's message of the automatic summary, read only when one is made.
  const auto = change.message;
  const autoSummary = !summary && auto && isMessageKey(auto.key) ? (await interfaceMessages(deps.db, [auto.key]))(auto.key, ...auto.params) : change.autoSummary;
  const save: SaveRevisionInput = {
    ns: target.ns,
    dbkey: target.dbkey,
    baseRevId: page?.latest.id ?? 0,
    text: content,
    contentModel: model,
    contentFormat: defaultFormat(model),
    user: { id: actor.id, name: actor.name },
    comment: summary || autoSummary,
    // EditPage: minor only on existing pages and with minoredit; bot only with the bot right.
    minor: req.minor && !req.notMinor && page !== undefined && has(actor, 'minoredit'),
    bot: req.bot && has(actor, 'bot'),
    autopatrol: has(actor, 'autopatrol'),
    tags,
    timestamp: now,
    ...(page ? { base: { model: page.latest.contentModel, text: page.latest.content, size: page.latest.size } } : {}),
  };
  const outcome: SavedEdit = { created: !page, nochange: false, pageId: page?.id ?? 0, title, dbkey, contentModel: model, oldRevId: 0, newRevId: 0, newTimestamp: '', merged, content };
  return { save, outcome, watch: page?.watch };
}

/**
 * Saves a prepared edit and applies its watchlist parameter, in one transaction. The common edit
 * — an existing page, whose watchlist stays as it is — is one statement (`saveRevisionOnBase`)
 * on the embedded database.
 */
async function savePrepared(deps: EditDeps, req: EditRequest, actor: EditActor, target: Target, prepared: PreparedEdit): Promise<EditResponse> {
  const expiry = watchlistExpiry(req.watchlistExpiry);
  const save = prepared.save;
  // On a database server the page change is announced by NOTIFY inside the saving transaction
  // (other instances drop their cached page once it commits): the transaction path below. The
  // embedded database has one process, whose cache is dropped right after the statement.
  if (deps.db.embedded && save?.base && save.baseRevId > 0 && prepared.watch && prepared.outcome.pageId > 0) {
    const plan = actor.id > 0 ? plannedWatch(req.watchlist as WatchlistMode, req.watchByPreference, expiry, prepared.watch) : { write: false, state: prepared.watch };
    if (!plan.write) {
      const saved = await saveRevisionOnBase(deps.db, deps.codec, { ...save, base: save.base, pageId: prepared.outcome.pageId });
      return {
        ...prepared.outcome,
        undoSummary: '',
        oldRevId: saved.parentId,
        newRevId: saved.revId,
        newTimestamp: isoTimestamp(saved.timestamp),
        watched: plan.state.watched,
        watchlistExpiry: plan.state.expiry ? isoTimestamp(plan.state.expiry) : '',
      };
    }
  }
  return deps.db.tx(async (q): Promise<EditResponse> => {
    let outcome = prepared.outcome;
    if (prepared.save) {
      const saved = await saveRevision(deps.db, deps.codec, prepared.save);
      outcome = {
        ...outcome,
        created: saved.created,
        pageId: saved.pageId,
        oldRevId: saved.parentId,
        newRevId: saved.revId,
        newTimestamp: isoTimestamp(saved.timestamp),
      };
    }
    const watch = await applyWatchlistParam(q, deps.db, actor.id, target, req.watchlist as WatchlistMode, req.watchByPreference, expiry, prepared.watch);
    return { ...outcome, undoSummary: '', watched: watch.watched, watchlistExpiry: watch.expiry ? isoTimestamp(watch.expiry) : '' };
  });
}

/** What an undo would save, nothing saved (EditPage's form opened with undo and undoafter). */
async function undoPreview(deps: EditDeps, req: EditRequest, actor: EditActor, target: Target): Promise<EditResponse> {
  const page = await currentPage(deps, target, actor.id);
  const prefixedTitle = deps.codec.prefixedText(target.ns, target.dbkey);
  const undo = await undoText(deps, req, page, prefixedTitle);
  return EditResponse.fromPartial({
    pageId: page?.id ?? 0,
    title: prefixedTitle,
    dbkey: deps.codec.prefixedDbKey(target.ns, target.dbkey),
    contentModel: undo.model,
    oldRevId: page?.latest.id ?? 0,
    newRevId: page?.latest.id ?? 0,
    content: undo.text,
    undoSummary: undo.summary ?? '',
    nochange: true,
  });
}

/** Runs one edit; see the file comment. */
export async function editPage(deps: EditDeps, req: EditRequest): Promise<EditResponse> {
  const actor = req.actor;
  if (!actor) throw invalidArgument('missingparam', 'The edit has no actor.');
  if (req.redirect && req.prependText === undefined && req.appendText === undefined && req.section !== 'new') {
    throw invalidArgument('redirect-appendonly', 'You have attempted to edit using the redirect-following mode, which must be used in conjunction with section=new, prependtext, or appendtext.');
  }
  let target = await resolveTarget(deps, req);
  if (req.undoPreview && req.undo > 0) return undoPreview(deps, req, actor, target);
  const followed = req.redirect ? await followRedirect(deps, target) : undefined;
  if (followed) target = followed.target;
  const state: AttemptState = { rateLimited: false };
  for (let attempt = 1; ; attempt++) {
    // Errors of the preparation are the edit's answer; only the save's below may be retried.
    const prepared = await prepareEdit(deps, req, actor, target, state);
    try {
      const res = await savePrepared(deps, req, actor, target, prepared);
      return followed ? { ...res, redirect: { from: followed.from, to: followed.to, tofragment: '' } } : res;
    } catch (e) {
      if (!(e instanceof ServiceError) || attempt >= MAX_ATTEMPTS) throw e;
      // Another edit was saved (or the page deleted) since this one was prepared: prepare it again
      // on the page as it is now, which merges a stale base or refuses it.
      if (e.mwCode === 'editconflict' || e.mwCode === 'missingtitle') continue;
      // The page was created by a concurrent edit after this one found it missing. An edit
      // relative to the current text is redone on the new page; a whole text based on "no page"
      // is a conflict.
      const raced = e.mwCode === 'articleexists' && !req.createOnly;
      if (!raced) throw e;
      const relative = req.appendText !== undefined || req.prependText !== undefined || req.section === 'new';
      if (!relative) throw conflict('editconflict', 'Edit conflict.');
    }
  }
}
