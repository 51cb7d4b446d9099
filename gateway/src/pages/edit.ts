/*
 * action=edit / action=submit (MediaWiki's EditPage) with its form field names, so tools that post
 * the form keep working: wpTextbox1, wpSummary, wpMinoredit, wpWatchthis, wpEditToken, wpStarttime,
 * wpEdittime, editRevId, wpSection, wpUltimateParam and the buttons wpSave / wpPreview / wpDiff.
 * The save is action=edit's (saveEdit): the content service merges a stale base 3-way or refuses
 * it with editconflict, which is shown as MediaWiki does — the current text to edit, the user's own
 * text beside it and the difference — so an edit is never lost. A new-page form saves with
 * createonly, so a page created meanwhile is a conflict too, not an overwrite.
 */
import type { PageRecord, RenderCategory, RenderLink } from '../clients/types.js';
import { categoryBox, templatesUsed } from './catlinks.js';
import { editActor, saveEdit } from '../action/modules/writes.js';
import { setPostEditCookie } from './post-edit.js';
import { DEFAULT_USER_OPTIONS } from '../action/query/userinfo.js';
import { hidden, html, messageBox, SafeHtml } from './html.js';
import { articlePath, indexPath } from './paths.js';
import { csrfToken, field, queryParam, redirect, send, SESSION_FAILURE, validCsrf, type PageRequest } from './request.js';
import { errorCode, errorText, formatTime, hasRight, isoFromMwTimestamp, mwTimestamp, pageTabs } from './wiki.js';
import { signaturePreference } from '../signature.js';

/** EditPage::UNICODE_CHECK: a browser that mangles it would mangle the text too. */
const UNICODE_CHECK = 'ℳ𝒲♥𝓊𝓃𝒾𝒸ℴ𝒹ℯ';

/** $wgRestrictionLevels' rights: a protection level → the right that lets one edit anyway. */
const LEVEL_RIGHT: Record<string, string> = { sysop: 'editprotected', autoconfirmed: 'editsemiprotected' };

interface EditState {
  text: string;
  summary: string;
  minor: boolean;
  watch: boolean;
  section: string;
  editRevId: number;
  editTime: string;
  startTime: string;
  /** Above the form: an error, a preview, a diff, a conflict explanation. */
  top?: SafeHtml;
  /** The user's own text, kept below the form after an edit conflict (wpTextbox2). */
  conflictText?: string;
  /** The blank-page warning was shown: the next save creates the blank page (wpIgnoreBlankArticle). */
  blankArticle?: boolean;
  /** An undo being made (wpUndidRevision, wpUndoAfter): saved as the undo when the text is still the undone one. */
  undo?: { rev: number; after: number };
  status?: number;
  /** What a preview used: its templates (listed below the form) and categories (the box under it). */
  previewed?: { templates: RenderLink[]; categories: RenderCategory[] };
}

/** Why the caller may not edit this page (EditPage::getEditPermissionErrors), or null. */
async function permissionError(p: PageRequest, page: PageRecord): Promise<string | null> {
  const user = p.caller.user;
  if (user.block && !user.block.partial) {
    const b = user.block;
    return `Your username or IP address has been blocked. The block was made by ${b.by}. The reason given is: ${b.reason || 'no reason given'}. Start of block: ${formatTime(b.timestamp)}. Expiry of block: ${b.expiry === 'infinite' || b.expiry === 'infinity' ? 'infinite' : formatTime(b.expiry)}.`;
  }
  if (!hasRight(p, 'edit')) return 'You do not have permission to edit pages.';
  if (page.missing && !hasRight(p, page.ns % 2 === 1 ? 'createtalk' : 'createpage')) return 'You do not have permission to create pages.';
  const ns = (await p.deps.site.namespaces()).namespaces.find((n) => n.id === page.ns);
  if (ns?.protection && !hasRight(p, ns.protection)) return 'This page provides interface text for the software on this wiki, and is protected to prevent abuse.';
  const levels = (await p.deps.clients.content.getProtection({ titles: [page.dbkey] })).titles[0]?.protections ?? [];
  for (const l of levels) {
    if (l.type !== (page.missing ? 'create' : 'edit') || !l.level) continue;
    const right = LEVEL_RIGHT[l.level] ?? l.level;
    if (!hasRight(p, right))
      return l.level === 'sysop' ? 'This page has been protected to prevent editing or other actions.' : 'This page has been protected so that only autoconfirmed users can edit it.';
  }
  return null;
}

/** The protection notice an editor who may edit anyway still sees (EditPage::showHeader). */
async function protectionNotice(p: PageRequest, page: PageRecord): Promise<SafeHtml | ''> {
  const levels = (await p.deps.clients.content.getProtection({ titles: [page.dbkey] })).titles[0]?.protections ?? [];
  const edit = levels.find((l) => l.type === (page.missing ? 'create' : 'edit') && l.level);
  if (!edit) return '';
  return messageBox(
    'warning',
    edit.level === 'sysop'
      ? 'Note: This page has been protected so that only users with administrator rights can edit it.'
      : 'Note: This page has been protected so that only autoconfirmed users can edit it.',
  );
}

/** PHP's urlencode: everything but letters, digits and `-_.` percent-encoded, a space as `+`. */
function phpUrlencode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * Where a saved section edit lands (EditPage::internalAttemptSave, guessSectionName): the
 * anchor of the section's heading as written (or of the new section's title), its links and
 * quotes stripped as Parser::stripSectionName does, urlencoded for the Location header.
 */
function sectionAnchor(s: Pick<EditState, 'section' | 'summary' | 'text'>): string {
  let name: string | undefined;
  if (s.section === 'new') name = s.summary;
  else if (s.section !== '') name = /^ *(={1,6})(.*?)\1 *\n/.exec(s.text)?.[2];
  if (!name) return '';
  const stripped = name
    .replace(/\[\[:?([^[|]+)\|([^[]+)\]\]/g, '$2')
    .replace(/\[\[:?([^[]+)\|?\]\]/g, '$1')
    .replace(/\[(?:https?:|ftp:|mailto:|\/\/)([^ ]+?) ([^[]+)\]/gi, '$2')
    .replace(/'{2,}/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/[ _]+/g, ' ')
    .trim();
  return stripped ? `#${phpUrlencode(stripped.replaceAll(' ', '_'))}` : '';
}

/** The text a form starts with: the page's (or one section's) current wikitext, "" for a new page or section. */
async function currentText(p: PageRequest, page: PageRecord, section: string): Promise<string> {
  if (page.missing || section === 'new') return '';
  if (section === '') return (await p.deps.clients.content.getPage(page.title, true)).latest?.content ?? '';
  return (await p.deps.clients.content.parse({ revId: page.latestRevId, section, disableLimitReport: true, disableEditSection: true })).wikitext;
}

function headingOf(page: PageRecord, section: string, conflict: boolean): string {
  if (conflict) return `Edit conflict: ${page.title}`;
  if (page.missing) return `Creating ${page.title}`;
  if (section === 'new') return `Editing ${page.title} (new section)`;
  return section ? `Editing ${page.title} (section)` : `Editing ${page.title}`;
}

async function showForm(p: PageRequest, page: PageRecord, s: EditState): Promise<void> {
  const registered = !p.caller.user.anonymous;
  const token = registered ? await csrfToken(p) : '+\\';
  const action = indexPath(page.title, { action: 'submit' });
  const subject = s.section === 'new';
  const body = html`${s.top ?? ''}
${p.caller.user.anonymous ? messageBox('warning', `You are not logged in. Once you make an edit, a person using this IP address (${p.caller.ip}) will be able to see it in the page history.`) : ''}
${await protectionNotice(p, page)}
<form id="editform" name="editform" method="post" action="${action}" enctype="application/x-www-form-urlencoded">
${hidden('wpUnicodeCheck', UNICODE_CHECK)}<input type="text" name="wpAntispam" id="wpAntispam" value="" tabindex="-1" autocomplete="off" aria-hidden="true">
${s.blankArticle ? hidden('wpIgnoreBlankArticle', '1') : ''}${s.undo ? html`${hidden('wpUndidRevision', String(s.undo.rev))}${hidden('wpUndoAfter', String(s.undo.after))}` : ''}${hidden('wpSection', s.section)}${hidden('wpStarttime', s.startTime)}${hidden('wpEdittime', s.editTime)}${hidden('editRevId', String(s.editRevId))}
${hidden('wpScrolltop', '')}${hidden('wpAutoSummary', 'd41d8cd98f00b204e9800998ecf8427e')}${hidden('oldid', '0')}${hidden('parentRevId', String(s.editRevId))}${hidden('format', 'text/x-wiki')}${hidden('model', 'wikitext')}
${subject ? html`<label class="field" for="wpSummary">Subject:</label><input type="text" name="wpSummary" id="wpSummary" maxlength="255" value="${s.summary}">` : ''}
<textarea name="wpTextbox1" id="wpTextbox1" rows="25" cols="80" lang="${p.deps.config.lang}" dir="ltr" aria-label="Wikitext source editor">${'\n'}${s.text}</textarea>
<div class="editOptions">
${!subject ? html`<label class="field" for="wpSummary">Summary:</label><input type="text" name="wpSummary" id="wpSummary" maxlength="500" value="${s.summary}" placeholder="Briefly describe your changes">` : ''}
${
  registered
    ? html`<p><label><input type="checkbox" name="wpMinoredit" id="wpMinoredit" value="1"${s.minor ? new SafeHtml(' checked') : ''}> This is a minor edit</label>
<label><input type="checkbox" name="wpWatchthis" id="wpWatchthis" value="1"${s.watch ? new SafeHtml(' checked') : ''}> Watch this page</label></p>`
    : ''
}
<p class="help">By saving changes, you agree to release your contribution under the wiki's license.</p>
<div class="mw-editform-buttons">
<button type="submit" class="primary" name="wpSave" id="wpSave" value="Save changes">${page.missing ? 'Save page' : 'Save changes'}</button>
<button type="submit" name="wpPreview" id="wpPreview" value="Show preview">Show preview</button>
<button type="submit" name="wpDiff" id="wpDiff" value="Show changes">Show changes</button>
<a href="${articlePath(page.title)}" id="mw-editform-cancel">Cancel</a>
</div>
</div>
${hidden('wpEditToken', token)}${hidden('wpUltimateParam', '1')}
</form>
${s.conflictText !== undefined ? html`<h2 id="mw-editconflict-yourtext">Your text</h2><textarea name="wpTextbox2" id="wpTextbox2" rows="15" readonly form="none">${'\n'}${s.conflictText}</textarea>` : ''}
${await formTemplates(p, page, s)}`;
  send(p, {
    title: headingOf(page, s.section, s.conflictText !== undefined),
    body,
    categories: s.previewed ? await categoryBox(p, page, s.previewed.categories) : undefined,
    tabs: await pageTabs(p, page, 'edit'),
    wikiContent: true,
    noindex: true,
    status: s.status,
    cache: { control: 'no-cache, no-store, max-age=0, must-revalidate' },
  });
}

/** EditPage::getTemplates: a preview's templates, else those of the saved page (its cached render). */
async function formTemplates(p: PageRequest, page: PageRecord, s: EditState): Promise<SafeHtml | ''> {
  if (s.previewed) return templatesUsed(s.previewed.templates, s.section !== '' && s.section !== 'new' ? 'section' : 'preview');
  if (page.missing) return '';
  const r = await p.deps.clients.content.parse({ page: page.title, disableEditSection: true, disableLimitReport: true }).catch(() => undefined);
  return templatesUsed(r?.templates ?? [], 'page');
}

/** "View source" (EditPage::displayViewSourcePage): the reason, and the text read-only. */
async function viewSource(p: PageRequest, page: PageRecord, reason: string): Promise<void> {
  const text = await currentText(p, page, '');
  const body = html`${messageBox('error', html`You do not have permission to edit this page, for the following reason:<br>${reason}`)}
${page.missing ? '' : html`<p>You can view and copy the source of this page.</p><textarea name="wpTextbox1" id="wpTextbox1" rows="25" readonly>${'\n'}${text}</textarea>`}
<p><a href="${articlePath(page.title)}">Return to ${page.title}.</a></p>`;
  send(p, { title: page.missing ? `View source for ${page.title}` : `View source for ${page.title}`, body, tabs: await pageTabs(p, page, 'edit'), status: 403, noindex: true });
}

/** The caller's options with the wiki's defaults under them (an anonymous caller's: the defaults). */
async function userOptions(p: PageRequest): Promise<Record<string, unknown>> {
  if (p.caller.user.anonymous) return { ...DEFAULT_USER_OPTIONS };
  const details = (await p.deps.clients.auth.getUsers({ ids: [p.caller.user.id] })).users[0];
  try {
    return { ...DEFAULT_USER_OPTIONS, ...(JSON.parse(details?.optionsJson || '{}') as Record<string, unknown>) };
  } catch {
    return { ...DEFAULT_USER_OPTIONS };
  }
}

const optionOn = (v: unknown) => v !== undefined && v !== 0 && v !== '0' && v !== false && v !== '';

/**
 * The form's default for wpWatchthis (EditPage::initialiseForm): watched already, or the
 * preferences say so — watchdefault for every edit, watchcreations for a page being created.
 */
async function watching(p: PageRequest, page: PageRecord, options: Record<string, unknown>): Promise<boolean> {
  if (p.caller.user.anonymous) return false;
  if (optionOn(options.watchdefault) || (page.missing && optionOn(options.watchcreations))) return true;
  if (page.missing) return false;
  return (await p.deps.clients.content.getPageInfoDetails({ titles: [page.title], watchUserId: p.caller.user.id })).pages[0]?.watched ?? false;
}

/** The form of a request that is not a submission: the current text, the base revision and now. */
async function initialState(p: PageRequest, page: PageRecord, section: string): Promise<EditState> {
  const [text, options] = await Promise.all([currentText(p, page, section), userOptions(p)]);
  // A section's summary starts with its heading as an autocomment (EditPage: "/* Heading */ ").
  const heading = section !== '' && section !== 'new' ? /^(={1,6})\s*(.+?)\s*\1\s*$/m.exec(text.split('\n')[0] ?? '')?.[2] : undefined;
  return {
    text,
    summary: section === 'new' ? queryParam(p, 'preloadtitle') : heading ? `/* ${heading} */ ` : '',
    // EditPage::initialiseForm: "Mark all edits minor by default" for an existing page, when one may.
    minor: !page.missing && optionOn(options.minordefault) && hasRight(p, 'minoredit'),
    watch: await watching(p, page, options),
    section,
    editRevId: page.missing ? 0 : page.latestRevId,
    editTime: page.missing ? '' : mwTimestamp(page.latestTimestamp),
    startTime: mwTimestamp(new Date().toISOString()),
  };
}

/** What undoing undoafter..undo would save now (EditPage::getContentObject with undo): the text and the automatic summary. */
async function undoPreview(p: PageRequest, page: PageRecord, undo: number, undoAfter: number): Promise<{ text: string; summary: string }> {
  const r = await p.deps.clients.content.edit({ title: page.title, undo, undoAfter, undoPreview: true, actor: editActor(p.caller) });
  return { text: r.content, summary: r.undoSummary };
}

/**
 * The form opened with undo and undoafter (EditPage::getContentObject): the undone text, the
 * undo summary, MediaWiki's undo-success notice and the difference from the current text; or
 * undo-failure / undo-norev above the current text.
 */
async function undoState(p: PageRequest, page: PageRecord, state: EditState): Promise<EditState> {
  const undo = Number(queryParam(p, 'undo')) | 0;
  const after = Number(queryParam(p, 'undoafter')) | 0;
  if (undo <= 0 || page.missing || state.section !== '') return state;
  try {
    const r = await undoPreview(p, page, undo, after);
    const undone = { ...state, text: r.text.trimEnd(), summary: r.summary, undo: { rev: undo, after } };
    const notice = html`<div class="mw-undo-success"><p>The edit can be undone.
Please check the comparison below to verify that this is what you want to do, and then publish the changes below to finish undoing the edit.</p></div>`;
    return { ...undone, top: html`${notice}${await changes(p, page, undone)}` };
  } catch (e) {
    const code = errorCode(e);
    if (code === 'undofailure') return { ...state, top: html`<div class="error mw-undo-failure"><p>The edit could not be undone due to conflicting intermediate edits.</p></div>` };
    if (code === 'nosuchrevid' || code === 'revwrongpage')
      return { ...state, top: html`<div class="error mw-undo-norev"><p>The edit could not be undone because it does not exist or was deleted.</p></div>` };
    throw e;
  }
}

/** The text of the form with MediaWiki's line-end rules (CRLF → LF, trailing blanks off). */
function postedText(p: PageRequest): string {
  return field(p, 'wpTextbox1').replace(/\r\n?/g, '\n').replace(/^\n/, '').trimEnd();
}

async function preview(p: PageRequest, page: PageRecord, s: EditState): Promise<{ box: SafeHtml; previewed: NonNullable<EditState['previewed']> }> {
  const { content } = p.deps.clients;
  const text = s.section === 'new' && s.summary ? `== ${s.summary} ==\n\n${s.text}` : s.text;
  const pst = (
    await content.preSaveTransform({ title: page.title, text, userName: p.caller.user.name, userAnonymous: p.caller.user.anonymous, signature: await signaturePreference(p.deps, p.caller, [text]) })
  ).text;
  const r = await content.parse({ hasText: true, text: pst, title: page.title, disableEditSection: true, disableLimitReport: true });
  const box = html`<div id="wikiPreview"><div class="previewnote"><h2 id="mw-previewheader">Preview</h2>${messageBox('warning', html`<strong>Remember that this is only a preview.</strong> Your changes have not yet been saved! <a href="#editform">→ Go to editing area</a>`)}</div>
<div class="mw-content-ltr mw-parser-output-preview">${new SafeHtml(r.html)}</div></div>`;
  return { box, previewed: { templates: r.templates, categories: r.categories } };
}

async function changes(p: PageRequest, page: PageRecord, s: EditState): Promise<SafeHtml> {
  const { content } = p.deps.clients;
  // A section is compared with the section as it was; a whole page with the base revision.
  const before = s.section !== '' || page.missing ? await currentText(p, page, s.section) : undefined;
  const from = before !== undefined ? { text: before, title: page.title } : { revId: s.editRevId || page.latestRevId };
  const r = await content.compare({ from, to: { text: s.text, title: page.title } });
  const rows = r.tableHtml.trim() === '' ? html`<tr><td colspan="4" class="diff-notice"><div class="mw-diff-empty">(No difference)</div></td></tr>` : new SafeHtml(r.tableHtml);
  return html`<div id="wikiDiff"><table class="diff diff-contentalign-left diff-editfont-monospace">
<colgroup><col class="diff-marker"><col class="diff-content"><col class="diff-marker"><col class="diff-content"></colgroup>
<tr class="diff-title"><td colspan="2" class="diff-otitle">Current version</td><td colspan="2" class="diff-ntitle">Your text</td></tr>
${rows}</table></div>`;
}

export async function editAction(p: PageRequest, page: PageRecord): Promise<void> {
  if (page.ns < 0) return send(p, { title: 'Bad title', status: 400, body: messageBox('error', 'Special pages cannot be edited.') });
  const submitted = p.method === 'POST' && (queryParam(p, 'action') === 'submit' || field(p, 'wpTextbox1') !== '' || field(p, 'wpUltimateParam') !== '');
  const section = (submitted ? field(p, 'wpSection') : queryParam(p, 'section')).trim();
  // EditPage takes what ApiEditPage takes: a number, "T-" and a number (a template's section, the edit link of a transcluded heading), or "new".
  if (section !== '' && section !== 'new' && !/^(?:T-)?\d+$/.test(section)) {
    return send(p, { title: 'Edit error', status: 400, body: messageBox('error', 'The section parameter must be a valid section ID or "new".') });
  }
  // A red link to a page that exists by now: its view (EditPage, redlink=1).
  if (!submitted && queryParam(p, 'redlink') === '1' && !page.missing) return redirect(p, articlePath(page.title));
  const refusal = await permissionError(p, page);
  if (refusal) return viewSource(p, page, refusal);
  if (!submitted) {
    let state: EditState;
    try {
      state = await initialState(p, page, section);
    } catch (e) {
      if (errorCode(e) !== 'nosuchsection') throw e;
      // EditPage::noSuchSectionPage: a 200 with 'nosuchsectiontext' (the section is not named) for "T-N" as for a number.
      return send(p, {
        title: 'Cannot find section',
        body: html`<p>You tried to edit a section that does not exist.
It may have been moved or deleted while you were viewing the page.</p><p id="mw-returnto">Return to <a href="${articlePath(page.title)}">${page.title}</a>.</p>`,
        tabs: await pageTabs(p, page, 'edit'),
      });
    }
    return showForm(p, page, await undoState(p, page, state));
  }

  const s: EditState = {
    text: postedText(p),
    summary: field(p, 'wpSummary')
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    minor: field(p, 'wpMinoredit') !== '',
    watch: field(p, 'wpWatchthis') !== '',
    section,
    editRevId: Number(field(p, 'editRevId')) | 0,
    editTime: field(p, 'wpEdittime'),
    startTime: field(p, 'wpStarttime'),
    ...(Number(field(p, 'wpUndidRevision')) > 0 ? { undo: { rev: Number(field(p, 'wpUndidRevision')) | 0, after: Number(field(p, 'wpUndoAfter')) | 0 } } : {}),
  };
  const registered = !p.caller.user.anonymous;
  // Anonymous editors have no session: their token is the constant "+\" (EditPage::tokenOk).
  const tokenOk = registered ? await validCsrf(p) : field(p, 'wpEditToken') === '+\\';
  if (field(p, 'wpPreview') || field(p, 'wpDiff') || !tokenOk || field(p, 'wpUltimateParam') !== '1') {
    const notice = !tokenOk
      ? messageBox('error', SESSION_FAILURE)
      : field(p, 'wpUltimateParam') !== '1' && !field(p, 'wpPreview') && !field(p, 'wpDiff')
        ? messageBox('error', 'Your edit was not accepted because the form data was incomplete. Please review your changes; nothing was saved.')
        : undefined;
    if (field(p, 'wpDiff')) return showForm(p, page, { ...s, top: html`${notice ?? ''}${await changes(p, page, s)}` });
    const shown = await preview(p, page, s);
    return showForm(p, page, { ...s, top: html`${notice ?? ''}${shown.box}`, previewed: shown.previewed });
  }

  // EditPage::internalAttemptSave: the honeypot field filled in (spam bots), or the text mangled on the way.
  if (field(p, 'wpAntispam') !== '') return showForm(p, page, { ...s, top: messageBox('error', 'The edit was refused as spam (the wpAntispam field was filled in).') });
  if (p.req.body && Object.hasOwn(p.req.body as object, 'wpUnicodeCheck') && field(p, 'wpUnicodeCheck') !== UNICODE_CHECK) {
    return showForm(p, page, { ...s, top: messageBox('error', 'Your browser does not support Unicode. It is required to edit pages, so your edit was not saved.') });
  }
  // DefaultTextConstraint: a new page left blank is saved only when saved again after the warning.
  if (page.missing && section === '' && s.text.trimEnd() === '' && field(p, 'wpIgnoreBlankArticle') === '') {
    const warning = html`<div id="mw-blankarticle">${messageBox('warning', html`<strong>Warning:</strong> The page you are creating is blank. If you click "Save page" again, the page will be created without any content.`)}</div>`;
    return showForm(p, page, { ...s, top: warning, blankArticle: true });
  }
  // An undo whose text was left as undone is saved as the undo (tagged mw-undo, as action=edit with undo);
  // an edited one, or one the current text no longer allows, as an ordinary edit of the text.
  let undoFields = {};
  if (s.undo && section === '') {
    const again = await undoPreview(p, page, s.undo.rev, s.undo.after).catch(() => undefined);
    if (again && again.text.trimEnd() === s.text) undoFields = { undo: s.undo.rev, undoAfter: s.undo.after };
  }
  try {
    const res = await saveEdit(p.deps, p.caller, {
      ...undoFields,
      title: page.title,
      text: s.text,
      section: section === '' ? undefined : section,
      sectionTitle: section === 'new' ? s.summary : undefined,
      summary: section === 'new' ? undefined : s.summary,
      minor: s.minor && registered && hasRight(p, 'minoredit'),
      notMinor: !s.minor,
      tags: [],
      baseRevId: s.editRevId,
      // The base revision alone: with a base time as well, the service's self-conflict check
      // (revisions after that second all by this editor) passes when another user's edit was
      // saved in the base revision's own second, and the other edit would be overwritten.
      // Without it a stale base is always merged 3-way or shown as a conflict.
      baseTimestamp: s.editRevId > 0 ? '' : isoFromMwTimestamp(s.editTime),
      startTimestamp: isoFromMwTimestamp(s.startTime),
      // A form for a new page must not overwrite a page someone created meanwhile.
      createOnly: s.editRevId === 0,
      watchlist: registered ? (s.watch ? 'watch' : 'unwatch') : 'nochange',
    });
    setPostEditCookie(p, res);
    return redirect(p, res.redirect || page.redirect ? indexPath(res.title, { redirect: 'no' }) : `${articlePath(res.title)}${sectionAnchor(s)}`);
  } catch (e) {
    const code = errorCode(e);
    if (code === 'editconflict' || code === 'articleexists') {
      // The current text to merge into, the user's own text below it, and what differs.
      const fresh = (await p.deps.clients.content.resolvePages({ titles: [page.title] })).pages[0] ?? page;
      const current = await currentText(p, fresh, '');
      const diff = await p.deps.clients.content.compare({ from: { text: current, title: page.title }, to: { text: s.text, title: page.title } });
      const top = html`${messageBox('error', html`<strong>Someone else has changed this page since you started editing it.</strong><br>The upper text area contains the page text as it currently exists. Your changes are shown in the lower text area. You will have to merge your changes into the existing text. <strong>Only</strong> the text in the upper text area will be saved when you press "Save changes".`)}
<table class="diff"><colgroup><col class="diff-marker"><col class="diff-content"><col class="diff-marker"><col class="diff-content"></colgroup>
<tr class="diff-title"><td colspan="2" class="diff-otitle">Current version</td><td colspan="2" class="diff-ntitle">Your text</td></tr>${new SafeHtml(diff.tableHtml)}</table>`;
      return showForm(p, fresh, {
        ...s,
        text: current,
        section: '',
        editRevId: fresh.missing ? 0 : fresh.latestRevId,
        editTime: fresh.missing ? '' : mwTimestamp(fresh.latestTimestamp),
        startTime: mwTimestamp(new Date().toISOString()),
        top,
        conflictText: s.text,
      });
    }
    return showForm(p, page, { ...s, top: messageBox('error', errorText(e)) });
  }
}
