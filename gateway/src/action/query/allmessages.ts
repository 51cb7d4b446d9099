/*
 * meta=allmessages (MediaWiki's ApiQueryAllMessages): messages from MediaWiki's English message
 * files (gateway/src/i18n), overridden by the wiki's MediaWiki: pages as MessageCache does.
 * Quire has no translations: any valid amlang/uselang falls back to English, but a language's own
 * override page (MediaWiki:Key/<lang>) still applies first.
 */
import { allMessageKeys, compareBytes, englishMessage, fixMessageWhitespace, isValidLanguageCode, replaceMessageParams } from '../../i18n/messages.js';
import { message, MessageUsageError } from '../errors.js';
import { setContentValue, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { modulePath, queryRunOf } from './run.js';
import { defineModule } from '../define.js';

const NS_MEDIAWIKI = 8;
/** The content language: its override pages have no /<lang> suffix. */
const CONTENT_LANGUAGE = 'en';
const LIST_BATCH = 500;
/** $wgAPIMaxResultSize: the bytes of values one result may hold. */
const MAX_RESULT_SIZE = 8_388_608;
/**
 * Messages made (arguments, parser) at a time, a batch's expansions in one ExpandTemplatesBatch
 * call: at most this many messages, and about EXPANSION_BATCH_BYTES of their text, so that huge
 * amargs cannot make much more text than the result limit allows.
 */
const EXPANSION_BATCH = 1000;
const EXPANSION_BATCH_BYTES = 1024 * 1024;

/** ApiResult::size: the bytes of every scalar value (keys and metadata not counted). */
function resultSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value === true ? 1 : value === false ? '' : value).length;
  if (value && typeof value === 'object') {
    let n = 0;
    for (const [k, v] of Object.entries(value)) if (!k.startsWith('_')) n += resultSize(v);
    return n;
  }
  return 0;
}

/** Page titles (DB keys without the namespace) of every MediaWiki: page. */
async function mediaWikiPageKeys(ctx: ActionContext): Promise<Map<string, number>> {
  const keys = new Map<string, number>();
  let from = '';
  for (;;) {
    const r = await ctx.deps.clients.content.listPages({ namespace: NS_MEDIAWIKI, from, limit: LIST_BATCH });
    for (const p of r.pages) keys.set(p.dbkey.slice(p.dbkey.indexOf(':') + 1), p.id);
    if (!r.continueFrom) return keys;
    from = r.continueFrom;
  }
}

/** Latest content of pages by id. */
async function pageContents(ctx: ActionContext, pageIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (pageIds.length === 0) return out;
  const r = await ctx.deps.clients.content.getRevisions({ pageIds, withContent: true });
  for (const rev of r.revisions) out.set(rev.pageId, rev.content ?? '');
  return out;
}

/** Language::ucfirst for a message key (the override page's title). */
function ucfirst(s: string): string {
  return s === '' ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** The override page title (without namespace) MessageCache reads for a key in a language. */
function overrideTitle(key: string, lang: string): string {
  const uc = ucfirst(key);
  return lang === CONTENT_LANGUAGE ? uc : `${uc}/${lang}`;
}

/**
 * Message::text(): the messages' wikitext after the preprocessor ({{PLURAL}}, {{SITENAME}},
 * {{int:}}…), each expanded as its own text; those with any braces in one batch call.
 */
async function transformMessages(ctx: ActionContext, texts: Map<string, string>, title: string): Promise<void> {
  const pending = [...texts].filter(([, t]) => t.includes('{{'));
  if (pending.length === 0) return;
  const expanded = await ctx.deps.clients.content.expandTemplatesBatch({ texts: pending.map(([, text]) => text), title, revId: 0 });
  pending.forEach(([name], i) => {
    const r = expanded[i];
    // As a failed call per message did before: the module fails (an internal error), no message is left unexpanded.
    if (r === undefined || r.error !== '') throw new Error(`message ${name} could not be expanded: ${r?.error ?? 'no answer'}`);
    texts.set(name, r.wikitext);
  });
}

/** An error reported by this module (path query+allmessages), as ApiBase::dieWithError. */
function moduleError(ctx: ActionContext, code: string, key: string, params: string[]): MessageUsageError {
  const m = message(code, key, params);
  // The parameters are safe wikitext (entities, a parameter name): Message::parse keeps them.
  const e = new MessageUsageError({ ...m, html: m.wikitext });
  e.modulePath = modulePath(ctx.module);
  return e;
}

/** wfEscapeWikiText for an echoed value: markup characters become numeric entities. */
function escapeWikiText(s: string): string {
  return s.replace(/["&'<=>[\]{|};]/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function checkTitle(ctx: ActionContext, title: string): Promise<void> {
  const bad = () => moduleError(ctx, 'invalidtitle', 'apierror-invalidtitle', [escapeWikiText(title)]);
  if (title.trim() === '') throw bad();
  const r = await ctx.deps.clients.content.resolvePages({ titles: [title] });
  if (r.invalid.length > 0) throw bad();
}

export const allmessagesModule = defineModule({
  name: 'allmessages',
  group: 'meta',
  prefix: 'am',
  summary: 'Return messages from this site.',
  params: {
    messages: { type: 'string', multi: true, default: '*', help: 'Which messages to output. <kbd>*</kbd> (default) means all messages.' },
    prop: { type: ['default'], multi: true, help: 'Which properties to get.' },
    enableparser: { type: 'boolean', default: false, help: 'Set to enable parser, will preprocess the wikitext of message (substitute magic words, handle templates, etc.).' },
    nocontent: { type: 'boolean', default: false, help: 'If set, do not include the content of the messages in the output.' },
    includelocal: {
      type: 'boolean',
      default: false,
      help: "Also include local messages, i.e. messages that don't exist in the software but do exist as in the MediaWiki namespace.\nThis lists all MediaWiki-namespace pages, so it will also list those that aren't really messages such as Common.js.",
    },
    args: { type: 'string', multi: true, allowDuplicates: true, help: 'Arguments to be substituted into message.' },
    filter: { type: 'string', help: 'Return only messages with names that contain this string.' },
    customised: { type: ['all', 'modified', 'unmodified'], default: 'all', help: 'Return only messages in this customisation state.' },
    lang: { type: 'string', help: 'Return messages in this language.' },
    from: { type: 'string', help: 'Return messages starting at this message.' },
    to: { type: 'string', help: 'Return messages ending at this message.' },
    title: { type: 'string', help: 'Page name to use as context when parsing message (for amenableparser option).' },
    prefix: { type: 'string', help: 'Return messages with this prefix.' },
  },
  flags: {},
  examples: {
    'action=query&meta=allmessages&amprefix=ipb-': 'Show messages starting with <kbd>ipb-</kbd>.',
    'action=query&meta=allmessages&ammessages=august|mainpage&amlang=de': 'Show messages <kbd>august</kbd> and <kbd>mainpage</kbd> in German.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const requestedLang = p.lang;
    if (requestedLang !== undefined && !isValidLanguageCode(requestedLang)) {
      throw moduleError(ctx, 'invalidlang', 'apierror-invalidlang', [`${ctx.module.prefix}lang`]);
    }
    // getCacheMode: the user's language (no amlang) or parser options make it per user.
    ctx.setCacheMode(requestedLang === undefined || p.enableparser ? 'anon-public-user-private' : 'public');
    // uselang/amlang: only English texts exist, but the language's own override pages count.
    const lang = (requestedLang ?? ctx.raw.get('uselang') ?? CONTENT_LANGUAGE).toLowerCase();
    const langCode = lang === 'user' || lang === 'content' || !isValidLanguageCode(lang) ? CONTENT_LANGUAGE : lang;
    const title = p.title ?? 'API';
    if (p.enableparser && p.title !== undefined) await checkTitle(ctx, title);

    const pages = await mediaWikiPageKeys(ctx);
    const requested = p.messages;
    let targets: string[];
    if (requested.includes('*')) {
      const names = new Set(allMessageKeys());
      if (p.includelocal) {
        // MessageCache::getAllMessageKeys: the content language's override pages, lcfirst.
        for (const key of pages.keys()) if (!key.includes('/')) names.add(key[0]!.toLowerCase() + key.slice(1));
      }
      targets = [...names].sort(compareBytes);
    } else {
      targets = requested;
    }
    const prefix = p.prefix;
    if (prefix !== undefined) {
      // The (sorted) list holds the prefixed names in one clump.
      const start = targets.findIndex((m) => m.startsWith(prefix));
      const end = start < 0 ? -1 : targets.findIndex((m, i) => i > start && !m.startsWith(prefix));
      targets = start < 0 ? [] : targets.slice(start, end < 0 ? undefined : end);
    }
    const filter = p.filter;
    if (filter !== undefined) targets = targets.filter((m) => m.includes(filter));

    const customised = p.customised;
    const args = p.args ?? [];
    const from = p.from;
    const to = p.to;
    const withDefault = (p.prop ?? []).includes('default');

    type Entry = { item: ResultObject; pageId?: number; fallback?: string };
    const entries: Entry[] = [];
    let skipping = from !== undefined;
    for (const name of targets) {
      if (skipping && name === from) skipping = false;
      if (to !== undefined && compareBytes(name, to) > 0) break;
      if (skipping) continue;
      const item: ResultObject = { name, normalizedname: name.replace(/ /g, '_').replace(/^./, (c) => c.toLowerCase()) };
      if (customised !== 'all') {
        // AllMessagesTablePager::getCustomisedStatuses: an override page of this exact name.
        const isCustomised = pages.has(langCode === CONTENT_LANGUAGE ? ucfirst(name) : `${ucfirst(name)}/${langCode}`);
        if ((customised === 'modified') !== isCustomised) continue;
        if (isCustomised) item.customised = true;
      }
      const key = name.replace(/ /g, '_');
      const pageId = pages.get(overrideTitle(key, langCode)) ?? pages.get(overrideTitle(key, CONTENT_LANGUAGE));
      entries.push({ item, pageId, fallback: englishMessage(key) });
    }

    const contents = await pageContents(
      ctx,
      entries.flatMap((e) => (e.pageId !== undefined ? [e.pageId] : [])),
    );
    // ApiResult::addValue: past $wgAPIMaxResultSize the module stops with amfrom at the first
    // message that did not fit and a truncatedresult warning. Messages are made a batch at a time,
    // so huge amargs cannot make more text than the limit allows.
    const list: ResultObject[] = [];
    let size = 0;
    for (let i = 0; i < entries.length; ) {
      const batch: Entry[] = [];
      const texts = new Map<string, string>();
      let bytes = 0;
      while (i < entries.length && batch.length < EXPANSION_BATCH && bytes < EXPANSION_BATCH_BYTES) {
        const e = entries[i++]!;
        batch.push(e);
        const page = e.pageId !== undefined ? contents.get(e.pageId) : undefined;
        const raw = page !== undefined ? fixMessageWhitespace(page) : e.fallback;
        if (raw === undefined) e.item.missing = true;
        else {
          const text = replaceMessageParams(raw, args);
          texts.set(e.item.name as string, text);
          bytes += text.length;
        }
      }
      if (p.enableparser) await transformMessages(ctx, texts, title);
      for (const e of batch) {
        const text = texts.get(e.item.name as string);
        if (text !== undefined) {
          if (p.nocontent !== true) setContentValue(e.item, 'content', text);
          if (withDefault) {
            // The default is the file's text (no override, no arguments).
            if (e.fallback === undefined) e.item.defaultmissing = true;
            else if (e.fallback !== text) e.item.default = e.fallback;
          }
        }
        size += resultSize(e.item);
        if (size > MAX_RESULT_SIZE) {
          ctx.addWarning('result', message('truncatedresult', 'apiwarn-truncatedresult', [MAX_RESULT_SIZE.toLocaleString('en-US')]));
          run.continuation.addContinueParam('allmessages', 'amfrom', e.item.name as string);
          run.data.allmessages = setIndexedTagName(list, 'message');
          return;
        }
        list.push(e.item);
      }
    }
    run.data.allmessages = setIndexedTagName(list, 'message');
  },
});
