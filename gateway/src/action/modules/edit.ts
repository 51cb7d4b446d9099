/*
 * action=edit (MediaWiki's ApiEditPage). The gateway checks what depends only on the request and
 * the caller (parameter combinations, blocks); the content service's Edit RPC does the rest —
 * permissions, text, undo, conflicts and merge, rate limit and the save — in one transaction.
 */
import crypto from 'node:crypto';
import type { BlockInfo } from '@quire/proto/wiki/auth/v1/auth';
import type { EditResponse } from '@quire/proto/wiki/content/v1/content';
import { blockedError } from '../blockinfo.js';
import type { Caller, GatewayDeps } from '../../context.js';
import { ApiUsageError, setIndexedTagName, type ActionContext, type ModuleDecl, type Params } from '../types.js';
import { apiError } from './support.js';
import { watchByPreference, watchlistExpiryOf } from './watch.js';

/** ContentHandlerFactory::getContentModels and getAllContentFormats of MediaWiki 1.39 core. */
const CONTENT_MODELS = ['wikitext', 'javascript', 'json', 'css', 'text'] as const;
const CONTENT_FORMATS = ['text/x-wiki', 'text/javascript', 'application/json', 'text/css', 'text/plain'] as const;

/** TS_MW ("20261121051314", as the parameter validator returns timestamps) → ISO 8601. */
export function isoFromMw(ts: string): string {
  return `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}Z`;
}

/**
 * What an edit by this caller is refused for before any page is looked at: a sitewide block
 * (partial blocks name pages, which are not modelled yet, so they do not stop edits).
 */
export function editBlock(caller: Caller): BlockInfo | undefined {
  const block = caller.user.block;
  return block && !block.partial ? block : undefined;
}

/** The actor of an edit as the content service takes it. */
export function editActor(caller: Caller) {
  const { user } = caller;
  return { id: user.id, name: user.name, rights: user.rights, groups: user.groups, ip: caller.ip };
}

/** After a saved edit: the registered user's edit count (best effort — the edit is committed). */
export async function countEdit(deps: GatewayDeps, caller: Caller, res: EditResponse): Promise<void> {
  if (res.nochange || caller.user.anonymous || caller.user.id === 0) return;
  try {
    await deps.clients.auth.incrementEditCount(caller.user.id);
  } catch (err) {
    deps.log.warn({ err, userId: caller.user.id }, 'could not count an edit');
  }
}

const str = (p: Params, name: string) => (typeof p[name] === 'string' ? (p[name] as string) : undefined);
const num = (p: Params, name: string) => (typeof p[name] === 'number' ? (p[name] as number) : 0);

function checkParamCombinations(p: Params): void {
  if (['text', 'appendtext', 'prependtext'].every((n) => p[n] === undefined) && num(p, 'undo') === 0) {
    throw apiError('missingparam', 'apierror-missingparam-at-least-one-of', ['<var>text</var>, <var>appendtext</var>, <var>prependtext</var> and <var>undo</var>', 4]);
  }
  const hasTitle = p.title !== undefined;
  const hasPageId = p.pageid !== undefined;
  if (hasTitle && hasPageId) throw apiError('invalidparammix', 'apierror-invalidparammix', ['<var>title</var> and <var>pageid</var>', 2]);
  if (!hasTitle && !hasPageId) throw new ApiUsageError('missingparam', 'One of the parameters "title" and "pageid" is required.');
}

/** The watchlist fields of the Edit RPC (ApiWatchlistTrait; the deprecated watch/unwatch win). */
async function editWatchlist(ctx: ActionContext) {
  const p = ctx.params;
  const watchlist = p.watch === true ? 'watch' : p.unwatch === true ? 'unwatch' : (p.watchlist as string);
  return {
    watchlist,
    watchlistExpiry: watchlist === 'unwatch' ? '' : watchlistExpiryOf(p.watchlistexpiry),
    watchByPreference: watchlist === 'preferences' ? await watchByPreference(ctx, ['watchdefault', 'watchcreations']) : false,
  };
}

/**
 * ApiEditPage checks md5 against the text as sent, line ends included (MediaWiki::Bot sends CRLF
 * and hashes that), while the service sees the text with line ends normalized: a hash that
 * matches what was sent is handed on as the hash of what the service sees, any other as '' (which
 * matches nothing), so the service still refuses it at MediaWiki's point of the checks.
 */
function md5ForService(ctx: ActionContext): string | undefined {
  const md5 = str(ctx.params, 'md5');
  if (md5 === undefined) return undefined;
  const relative = ctx.params.appendtext !== undefined || ctx.params.prependtext !== undefined;
  const hashed = (get: (name: string) => string | undefined) =>
    crypto.createHash('md5').update(relative ? (get('prependtext') ?? '') + (get('appendtext') ?? '') : (get('text') ?? ''), 'utf8').digest('hex');
  return hashed((name) => ctx.raw.get(name)?.normalize('NFC')) === md5 ? hashed((name) => str(ctx.params, name)) : '';
}

async function execute(ctx: ActionContext): Promise<void> {
  const p = ctx.params;
  checkParamCombinations(p);
  const block = editBlock(ctx.caller);
  if (block) throw blockedError(block);

  const ts = (name: string) => (typeof p[name] === 'string' ? isoFromMw(p[name] as string) : '');
  const res: EditResponse = await ctx.deps.clients.content.edit({
    title: str(p, 'title') ?? '',
    pageId: num(p, 'pageid'),
    text: str(p, 'text'),
    appendText: str(p, 'appendtext'),
    prependText: str(p, 'prependtext'),
    section: str(p, 'section'),
    sectionTitle: str(p, 'sectiontitle'),
    summary: str(p, 'summary'),
    minor: p.minor === true,
    notMinor: p.notminor === true,
    bot: p.bot === true,
    tags: Array.isArray(p.tags) ? (p.tags as string[]) : [],
    baseRevId: num(p, 'baserevid'),
    baseTimestamp: ts('basetimestamp'),
    startTimestamp: ts('starttimestamp'),
    createOnly: p.createonly === true,
    noCreate: p.nocreate === true,
    recreate: p.recreate === true,
    undo: num(p, 'undo'),
    undoAfter: num(p, 'undoafter'),
    contentFormat: str(p, 'contentformat') ?? '',
    contentModel: str(p, 'contentmodel') ?? '',
    md5: md5ForService(ctx),
    redirect: p.redirect === true,
    actor: editActor(ctx.caller),
    maxArticleSizeKb: ctx.deps.config.maxArticleSizeKb,
    ...(await editWatchlist(ctx)),
  });
  await countEdit(ctx.deps, ctx.caller, res);

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

export const editModule: ModuleDecl = {
  name: 'edit',
  group: 'action',
  prefix: '',
  summary: 'Create and edit pages.',
  params: {
    title: { type: 'string', help: 'Title of the page to edit. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'Page ID of the page to edit. Cannot be used together with title.' },
    section: { type: 'string', help: 'Section identifier. 0 for the top section, new for a new section. Often a positive integer, but can also be non-numeric.' },
    sectiontitle: { type: 'string', help: 'The title for a new section when using section=new.' },
    text: { type: 'text', help: 'Page content.' },
    summary: {
      type: 'string',
      help: 'Edit summary. When this parameter is not provided or empty, an edit summary may be generated automatically. When using section=new and sectiontitle is not provided, the value of this parameter is used for the section title instead, and an edit summary is generated automatically.',
    },
    tags: { type: 'string', multi: true, help: 'Change tags to apply to the revision.' },
    minor: { type: 'boolean', default: false, help: 'Mark this edit as a minor edit.' },
    notminor: { type: 'boolean', default: false, help: 'Do not mark this edit as a minor edit even if the "Mark all edits minor by default" user preference is set.' },
    bot: { type: 'boolean', default: false, help: 'Mark this edit as a bot edit.' },
    baserevid: { type: 'integer', help: 'ID of the base revision, used to detect edit conflicts. May be obtained through action=query&prop=revisions. Self-conflicts cause the edit to fail unless basetimestamp is set.' },
    basetimestamp: { type: 'timestamp', help: 'Timestamp of the base revision, used to detect edit conflicts. May be obtained through action=query&prop=revisions&rvprop=timestamp. Self-conflicts are ignored.' },
    starttimestamp: { type: 'timestamp', help: 'Timestamp when the editing process began, used to detect edit conflicts. An appropriate value may be obtained using curtimestamp when beginning the edit process (e.g. when loading the page content to edit).' },
    recreate: { type: 'boolean', default: false, help: 'Override any errors about the page having been deleted in the meantime.' },
    createonly: { type: 'boolean', default: false, help: "Don't edit the page if it exists already." },
    nocreate: { type: 'boolean', default: false, help: "Throw an error if the page doesn't exist." },
    watch: { type: 'boolean', default: false, deprecated: true, help: 'Add the page to the current user\'s watchlist.' },
    unwatch: { type: 'boolean', default: false, deprecated: true, help: 'Remove the page from the current user\'s watchlist.' },
    watchlist: {
      type: ['nochange', 'preferences', 'unwatch', 'watch'],
      default: 'preferences',
      help: "Unconditionally add or remove the page from the current user's watchlist, use preferences (ignored for bot users) or do not change watch.",
    },
    watchlistexpiry: {
      type: 'string',
      help: 'Watchlist expiry timestamp. Omit this parameter entirely to leave the current expiry unchanged.',
    },
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
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=edit&title=Test&summary=test%20summary&text=article%20content&baserevid=1234567&token=123ABC': 'Edit a page.',
    'action=edit&title=Test&summary=NOTOC&minor=&prependtext=__NOTOC__%0A&basetimestamp=2007-08-24T12:34:54Z&token=123ABC': 'Prepend __NOTOC__ to a page.',
    'action=edit&title=Test&undo=13585&undoafter=13579&basetimestamp=2007-08-24T12:34:54Z&token=123ABC': 'Undo revisions 13579 through 13585 with autosummary.',
  },
  execute,
};
