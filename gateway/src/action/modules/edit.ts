/*
 * action=edit (MediaWiki's ApiEditPage). The gateway checks what depends only on the request and
 * the caller (parameter combinations, blocks); the content service's Edit RPC does the rest —
 * permissions, text, undo, conflicts and merge, rate limit and the save — in one transaction.
 */
import crypto from 'node:crypto';
import { defineModule, defineParams, type ContextOf } from '../define.js';
import { isoFromMw } from '../../validation/typedefs.js';
import { ApiUsageError, setIndexedTagName } from '../types.js';
import { apiError } from './support.js';
import { WATCHLIST_EXPIRY_PARAM, WATCHLIST_PARAM, watchlistFields } from './watchlist-params.js';
import { saveEdit, TAGS_PARAM } from './writes.js';
import { CONTENT_FORMAT_VALUES as CONTENT_FORMATS, CONTENT_MODEL_VALUES as CONTENT_MODELS } from '../content-formats.js';

const params = defineParams({
  title: { type: 'string', help: 'Title of the page to edit. Cannot be used together with pageid.' },
  pageid: { type: 'integer', help: 'Page ID of the page to edit. Cannot be used together with title.' },
  section: { type: 'string', help: 'Section identifier. 0 for the top section, new for a new section. Often a positive integer, but can also be non-numeric.' },
  sectiontitle: { type: 'string', help: 'The title for a new section when using section=new.' },
  text: { type: 'text', help: 'Page content.' },
  summary: {
    type: 'string',
    help: 'Edit summary. When this parameter is not provided or empty, an edit summary may be generated automatically. When using section=new and sectiontitle is not provided, the value of this parameter is used for the section title instead, and an edit summary is generated automatically.',
  },
  tags: { ...TAGS_PARAM, help: 'Change tags to apply to the revision.' },
  minor: { type: 'boolean', default: false, help: 'Mark this edit as a minor edit.' },
  notminor: { type: 'boolean', default: false, help: 'Do not mark this edit as a minor edit even if the "Mark all edits minor by default" user preference is set.' },
  bot: { type: 'boolean', default: false, help: 'Mark this edit as a bot edit.' },
  baserevid: {
    type: 'integer',
    help: 'ID of the base revision, used to detect edit conflicts. May be obtained through action=query&prop=revisions. Self-conflicts cause the edit to fail unless basetimestamp is set.',
  },
  basetimestamp: {
    type: 'timestamp',
    help: 'Timestamp of the base revision, used to detect edit conflicts. May be obtained through action=query&prop=revisions&rvprop=timestamp. Self-conflicts are ignored.',
  },
  starttimestamp: {
    type: 'timestamp',
    help: 'Timestamp when the editing process began, used to detect edit conflicts. An appropriate value may be obtained using curtimestamp when beginning the edit process (e.g. when loading the page content to edit).',
  },
  recreate: { type: 'boolean', default: false, help: 'Override any errors about the page having been deleted in the meantime.' },
  createonly: { type: 'boolean', default: false, help: "Don't edit the page if it exists already." },
  nocreate: { type: 'boolean', default: false, help: "Throw an error if the page doesn't exist." },
  watch: { type: 'boolean', default: false, deprecated: true, help: "Add the page to the current user's watchlist." },
  unwatch: { type: 'boolean', default: false, deprecated: true, help: "Remove the page from the current user's watchlist." },
  watchlist: WATCHLIST_PARAM,
  watchlistexpiry: WATCHLIST_EXPIRY_PARAM,
  md5: {
    type: 'string',
    help: "The MD5 hash of the text parameter, or the prependtext and appendtext parameters concatenated. If set, the edit won't be done unless the hash is correct.",
  },
  prependtext: { type: 'text', help: 'Add this text to the beginning of the page or section. Overrides text.' },
  appendtext: { type: 'text', help: 'Add this text to the end of the page or section. Overrides text. Use section=new to append a new section, rather than this parameter.' },
  undo: { type: 'integer', min: 0, enforceRange: true, help: 'Undo this revision. Overrides text, prependtext and appendtext.' },
  undoafter: { type: 'integer', min: 0, enforceRange: true, help: 'Undo all revisions from undo to this one. If not set, just undo one revision.' },
  redirect: { type: 'boolean', default: false, help: 'Automatically resolve redirects.' },
  contentformat: { type: CONTENT_FORMATS, help: 'Content serialization format used for the input text.' },
  contentmodel: { type: CONTENT_MODELS, help: 'Content model of the new content.' },
});
type EditContext = ContextOf<typeof params>;

function checkParamCombinations(p: EditContext['params']): void {
  if (p.text === undefined && p.appendtext === undefined && p.prependtext === undefined && !p.undo) {
    throw apiError('missingparam', 'apierror-missingparam-at-least-one-of', ['<var>text</var>, <var>appendtext</var>, <var>prependtext</var> and <var>undo</var>', 4]);
  }
  const hasTitle = p.title !== undefined;
  const hasPageId = p.pageid !== undefined;
  if (hasTitle && hasPageId) throw apiError('invalidparammix', 'apierror-invalidparammix', ['<var>title</var> and <var>pageid</var>', 2]);
  if (!hasTitle && !hasPageId) throw new ApiUsageError('missingparam', 'One of the parameters "title" and "pageid" is required.');
}

/**
 * ApiEditPage checks md5 against the text as sent, line ends included (MediaWiki::Bot sends CRLF
 * and hashes that), while the service sees the text with line ends normalized: a hash that
 * matches what was sent is handed on as the hash of what the service sees, any other as '' (which
 * matches nothing), so the service still refuses it at MediaWiki's point of the checks.
 */
function md5ForService(ctx: EditContext): string | undefined {
  const p = ctx.params;
  if (p.md5 === undefined) return undefined;
  const relative = p.appendtext !== undefined || p.prependtext !== undefined;
  const hashed = (get: (name: 'text' | 'appendtext' | 'prependtext') => string | undefined) =>
    crypto
      .createHash('md5')
      .update(relative ? (get('prependtext') ?? '') + (get('appendtext') ?? '') : (get('text') ?? ''), 'utf8')
      .digest('hex');
  return hashed((name) => ctx.raw.get(name)?.normalize('NFC')) === p.md5 ? hashed((name) => p[name]) : '';
}

async function execute(ctx: EditContext): Promise<void> {
  const p = ctx.params;
  checkParamCombinations(p);
  // ContentHandler::supportsDirectApiEditing: content of an uninstalled model (FallbackContentHandler) cannot be edited.
  if (p.contentmodel === 'unknown') {
    throw new ApiUsageError('no-direct-editing', `Direct editing via API is not supported for content model unknown used by ${p.title ?? `page ID ${p.pageid}`}.`);
  }
  // The deprecated watch/unwatch win over watchlist (ApiEditPage).
  const watchlist = p.watch ? 'watch' : p.unwatch ? 'unwatch' : p.watchlist;
  const res = await saveEdit(ctx.deps, ctx.caller, {
    title: p.title ?? '',
    pageId: p.pageid ?? 0,
    text: p.text,
    appendText: p.appendtext,
    prependText: p.prependtext,
    section: p.section,
    sectionTitle: p.sectiontitle,
    summary: p.summary,
    minor: p.minor,
    notMinor: p.notminor,
    bot: p.bot,
    tags: p.tags ?? [],
    baseRevId: p.baserevid ?? 0,
    baseTimestamp: p.basetimestamp !== undefined ? isoFromMw(p.basetimestamp) : '',
    startTimestamp: p.starttimestamp !== undefined ? isoFromMw(p.starttimestamp) : '',
    createOnly: p.createonly,
    noCreate: p.nocreate,
    recreate: p.recreate,
    undo: p.undo ?? 0,
    undoAfter: p.undoafter ?? 0,
    contentFormat: p.contentformat ?? '',
    contentModel: p.contentmodel ?? '',
    md5: md5ForService(ctx),
    redirect: p.redirect,
    ...(await watchlistFields(ctx, ['watchdefault', 'watchcreations'], watchlist)),
  });

  if (res.redirect) ctx.result.redirects = setIndexedTagName({ from: res.redirect.from, to: res.redirect.to }, 'r');
  const edit: Record<string, unknown> = {};
  if (res.created) edit.new = true;
  edit.result = 'Success';
  edit.pageid = res.pageId;
  edit.title = res.title;
  edit.contentmodel = res.contentModel;
  if (res.nochange) edit.nochange = true;
  else {
    edit.oldrevid = res.oldRevId;
    edit.newrevid = res.newRevId;
    edit.newtimestamp = res.newTimestamp;
  }
  if (res.watched) {
    edit.watched = true;
    if (res.watchlistExpiry) edit.watchlistexpiry = res.watchlistExpiry;
  }
  ctx.result.edit = edit;
}

export const editModule = defineModule({
  name: 'edit',
  group: 'action',
  prefix: '',
  summary: 'Create and edit pages.',
  params,
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=edit&title=Test&summary=test%20summary&text=article%20content&baserevid=1234567&token=123ABC': 'Edit a page.',
    'action=edit&title=Test&summary=NOTOC&minor=&prependtext=__NOTOC__%0A&basetimestamp=2007-08-24T12:34:54Z&token=123ABC': 'Prepend __NOTOC__ to a page.',
    'action=edit&title=Test&undo=13585&undoafter=13579&basetimestamp=2007-08-24T12:34:54Z&token=123ABC': 'Undo revisions 13579 through 13585 with autosummary.',
  },
  execute,
});
