/*
 * action=parse (MediaWiki's ApiParse): renders supplied text, a page or a revision through the
 * content service's Parse RPC (saved revisions come from the parser cache) and reports the props
 * asked for in ApiParse's key order and shapes; `pst`/`onlypst` run the content service's pre-save
 * transform first (signed by the caller), `summary` is formatted as MediaWiki formats edit
 * summaries, `headhtml` is the document head of this wiki (no scripts: the wiki serves none);
 * `categorieshtml`, `subtitle` and `limitreporthtml` are the skin's and the preview's HTML
 * (parse-skin.ts). Not offered: the deprecated headitems.
 */
import type { ParseResponse } from '../../clients/types.js';
import { escapeHtml, message } from '../errors.js';
import { ApiUsageError, META, setArrayType, setContentValue, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { defineModule } from '../define.js';
import { SKINS } from '../query/siteinfo-props.js';
import { CONTENT_FORMAT_VALUES, supportsFormat } from '../content-formats.js';
import { DELETED_TEXT, DELETED_TEXT_DENIED, userCanSee } from '../../revdel.js';
import { signaturePreference } from '../../signature.js';
import { categoriesHtml, limitReportHtml, outputModules, subpageParents, subpageSubtitle } from './parse-skin.js';

const PROPS = [
  'text',
  'langlinks',
  'categories',
  'categorieshtml',
  'links',
  'templates',
  'images',
  'externallinks',
  'sections',
  'revid',
  'displaytitle',
  'subtitle',
  'headhtml',
  'modules',
  'jsconfigvars',
  'encodedjsconfigvars',
  'indicators',
  'iwlinks',
  'wikitext',
  'properties',
  'limitreportdata',
  'limitreporthtml',
  'parsetree',
  'parsewarnings',
  'parsewarningshtml',
] as const;
const DEFAULT_PROPS = 'text|langlinks|categories|links|templates|images|externallinks|sections|revid|displaytitle|iwlinks|properties|parsewarnings';

/** Rows of the ParserOutput limit report (ApiParse's limitreportdata). */
function limitReportData(r: ParseResponse): ResultObject[] {
  const l = r.limits;
  if (!l) return [];
  const row = (name: string, ...values: unknown[]): ResultObject => ({ name, ...Object.fromEntries(values.map((v, i) => [String(i), v])) });
  return [
    row('limitreport-cputime', l.cpuSeconds.toFixed(3)),
    row('limitreport-walltime', l.wallSeconds.toFixed(3)),
    row('limitreport-ppvisitednodes', l.ppVisitedNodes, 1000000),
    row('limitreport-postexpandincludesize', l.postExpandIncludeSize, 2097152),
    row('limitreport-templateargumentsize', l.templateArgumentSize, 2097152),
    row('limitreport-expansiondepth', l.expansionDepth, 100),
    row('limitreport-expensivefunctioncount', l.expensiveFunctions, 100),
    row('limitreport-unstrip-depth', 0, 20),
    row('limitreport-unstrip-size', l.unstripSize, 5000000),
    row('limitreport-timingprofile', ...l.timingProfile),
    row('cachereport-timestamp', l.cachedTime),
    row('cachereport-ttl', l.ttl),
    { ...row('cachereport-transientcontent', l.volatile), [META.BC_BOOLS]: ['0'] },
  ];
}

/** OutputPage::headElement of a view of `title` (its classes), without the scripts MediaWiki adds. */
function headHtml(title: string, ns: number, sitename: string, server: string, lang: string): string {
  const key = title.replaceAll(' ', '_');
  const root = key.replace(/\/.*$/, '');
  const url = (s: string) => encodeURIComponent(s).replace(/%(3A|2F)/g, (m) => decodeURIComponent(m));
  return (
    `<!DOCTYPE html>\n<html class="client-nojs" lang="${lang}" dir="ltr">\n<head>\n<meta charset="UTF-8"/>\n<title> - ${escapeHtml(sitename)}</title>\n` +
    '<meta name="format-detection" content="telephone=no"/>\n' +
    `<link rel="alternate" type="application/x-wiki" title="Edit" href="/w/index.php?title=${url(key)}&amp;action=edit"/>\n` +
    '<link rel="icon" href="/favicon.ico"/>\n' +
    `<link rel="EditURI" type="application/rsd+xml" href="${escapeHtml(server)}/w/api.php?action=rsd"/>\n` +
    `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(sitename)} Atom feed" href="/w/index.php?title=Special:RecentChanges&amp;feed=atom"/>\n</head>\n` +
    `<body class="mediawiki ltr sitedir-ltr mw-hide-empty-elt ns-${ns} ns-${ns % 2 === 1 ? 'talk' : ns < 0 ? 'special' : 'subject'} mw-editable page-${escapeHtml(key)} rootpage-${escapeHtml(root)} skin-vector action-view">`
  );
}

/** ApiParse::formatSummary of a new section: the summary, or else the title, as "/* title *\/ new section". */
function newSectionSummary(summary: string, sectionTitle: string): string {
  if (sectionTitle !== '' && summary !== '') return summary;
  const of = sectionTitle !== '' ? sectionTitle : summary;
  return of === '' ? '' : `/* ${stripSectionName(of)} */ new section`;
}

/** Parser::stripSectionName: links in a section name leave only their text. */
function stripSectionName(name: string): string {
  return name
    .replace(/\[\[:?([^[|]+)\|([^[]+)\]\]/g, '$2')
    .replace(/\[\[:?([^[]+)\|?\]\]/g, '$1')
    .replace(/\[(?:https?:|ftp:|mailto:)?\/\/([^ ]+?) ([^[]+)\]/g, '$2')
    .replace(/\[(?:https?:|ftp:|mailto:)?\/\/([^ ]+?)\]/g, '');
}

/** ParserOutput::getText with allowTOC off: the table of contents is left out. */
/** ApiParse with oldid: a revision whose text is hidden from the caller is refused (a missing one is the parse's nosuchrevid). */
async function assertOldTextVisible(ctx: ActionContext, oldId: number): Promise<void> {
  const [rev] = (await ctx.deps.clients.content.getRevisions({ revIds: [oldId] })).revisions;
  if (rev && !userCanSee(rev.deleted, DELETED_TEXT, ctx.caller.user.rights)) throw new ApiUsageError('permissiondenied', DELETED_TEXT_DENIED);
}

/** The parsed page's categories whose pages are marked __HIDDENCAT__. */
async function hiddenCategories(ctx: ActionContext, r: ParseResponse): Promise<Set<string>> {
  const existing = r.categories.filter((c) => !c.missing).map((c) => c.name);
  if (existing.length === 0) return new Set();
  const info = await ctx.deps.clients.content.getCategoryInfo({ names: existing });
  return new Set(info.categories.filter((c) => c.hidden).map((c) => c.name));
}

/** Skin::getCategories of the parsed page, for the caller (their showhiddencats option). */
async function categoriesBox(ctx: ActionContext, r: ParseResponse, hidden: ReadonlySet<string>): Promise<string> {
  const showHidden = await userOption(ctx, 'showhiddencats');
  return categoriesHtml(
    r.categories.map((c) => ({ name: c.name, missing: c.missing, hidden: hidden.has(c.name) })),
    r.ns,
    showHidden,
  );
}

/** A boolean user option of the caller (MediaWiki's default for these is off). */
async function userOption(ctx: ActionContext, name: string): Promise<boolean> {
  if (ctx.caller.user.anonymous) return false;
  const details = (await ctx.deps.clients.auth.getUsers({ ids: [ctx.caller.user.id] })).users[0];
  try {
    const v = (JSON.parse(details?.optionsJson || '{}') as Record<string, unknown>)[name];
    return v === true || v === 1 || v === '1';
  } catch {
    return false;
  }
}

/** Skin::prepareSubtitle of a view of the parsed page: the trail of its parent pages, in a namespace with subpages. */
async function subtitleOf(ctx: ActionContext, r: ParseResponse): Promise<string> {
  const parents = subpageParents(r.title);
  if (parents.length === 0) return '';
  const ns = (await ctx.deps.site.namespaces()).namespaces.find((n) => n.id === r.ns);
  if (!ns?.subpages) return '';
  const found = await ctx.deps.clients.content.resolvePages({ titles: parents });
  const exists = new Set(found.pages.filter((p) => !p.missing && p.id > 0).map((p) => p.title));
  return subpageSubtitle(r.title, exists);
}

function withoutToc(html: string): string {
  return html.replace(/<div id="toc" class="toc"[\s\S]*?<\/ul>\n<\/div>/, '');
}

export const parseModule = defineModule({
  name: 'parse',
  group: 'action',
  prefix: '',
  summary: 'Parses content and returns parser output.',
  params: {
    title: { type: 'string', help: 'Title of page the text belongs to. If omitted, contentmodel must be specified, and API will be used as the title.' },
    text: { type: 'text', help: 'Text to parse. Use title or contentmodel to control the content model.' },
    revid: { type: 'integer', help: 'Revision ID, for {{REVISIONID}} and similar variables.' },
    page: { type: 'string', help: 'Parse the content of this page. Cannot be used together with text and title.' },
    pageid: { type: 'integer', help: 'Parse the content of this page. Overrides page.' },
    redirects: { type: 'boolean', default: false, help: 'If page or pageid is set to a redirect, resolve it.' },
    oldid: { type: 'integer', help: 'Parse the content of this revision. Overrides page and pageid.' },
    prop: { type: PROPS, multi: true, default: DEFAULT_PROPS, help: 'Which pieces of information to get.' },
    wrapoutputclass: { type: 'string', default: 'mw-parser-output', help: 'CSS class to use to wrap the parser output.' },
    effectivelanglinks: { type: 'boolean', default: false, deprecated: true, help: 'Includes language links supplied by extensions (for use with prop=langlinks).' },
    section: { type: 'string', help: 'Only parse the content of the section with this identifier.' },
    sectiontitle: { type: 'string', help: 'New section title when section is new.' },
    disablepp: { type: 'boolean', default: false, deprecated: true, help: 'Use disablelimitreport instead.' },
    disablelimitreport: { type: 'boolean', default: false, help: 'Omit the limit report ("NewPP limit report") from the parser output.' },
    disableeditsection: { type: 'boolean', default: false, help: 'Omit edit section links from the parser output.' },
    disablestylededuplication: { type: 'boolean', default: false, help: 'Do not deduplicate inline stylesheets in the parser output.' },
    showstrategykeys: { type: 'boolean', default: false, help: 'Whether to include internal merge strategy information in jsconfigvars.' },
    generatexml: { type: 'boolean', default: false, deprecated: true, help: 'Generate XML parse tree (requires content model wikitext; replaced by prop=parsetree).' },
    summary: { type: 'string', help: 'Summary to parse.' },
    pst: { type: 'boolean', default: false, help: 'Do a pre-save transform on the input before parsing it. Only valid when used with text.' },
    onlypst: {
      type: 'boolean',
      default: false,
      help: "Do a pre-save transform (PST) on the input, but don't parse it. Returns the same wikitext, after a PST has been applied. Only valid when used with text.",
    },
    preview: { type: 'boolean', default: false, help: 'Parse in preview mode.' },
    sectionpreview: { type: 'boolean', default: false, help: 'Parse section in preview mode (enables preview mode too).' },
    disabletoc: { type: 'boolean', default: false, help: 'Omit table of contents in output.' },
    useskin: { type: Object.keys(SKINS), help: 'Apply the selected skin to the parser output. May affect the following properties: text, langlinks, headitems, modules, jsconfigvars, indicators.' },
    contentformat: { type: CONTENT_FORMAT_VALUES, help: 'Content serialization format used for the input text. Only valid when used with text.' },
    // ContentHandler's models that render here (the unknown model's error box is not offered).
    contentmodel: { type: ['css', 'javascript', 'json', 'text', 'wikitext'], help: 'Content model of the input text. Only valid when used with text.' },
  },
  flags: {},
  examples: {
    'action=parse&page=Project:Sandbox': 'Parse a page.',
    'action=parse&text={{Project:Sandbox}}&contentmodel=wikitext': 'Parse wikitext.',
    'action=parse&text={{PAGENAME}}&title=Test': 'Parse wikitext, specifying the page title.',
    'action=parse&summary=Some+[[link]]&prop=': 'Parse a summary.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const title = p.title;
    const page = p.page;
    const pageId = p.pageid;
    const oldId = p.oldid;
    const sources = [page !== undefined, pageId !== undefined, oldId !== undefined].filter(Boolean).length;
    if (sources > 0 && (p.text !== undefined || title !== undefined)) {
      throw new ApiUsageError('invalidparammix', 'The parameters page, pageid and oldid can not be used together with text and title.');
    }
    if (page !== undefined && pageId !== undefined) throw new ApiUsageError('invalidparammix', 'The parameters page and pageid can not be used together.');
    if (oldId !== undefined && oldId <= 0) throw new ApiUsageError('nosuchrevid', `There is no revision with ID ${oldId}.`);
    if (pageId !== undefined && pageId <= 0) throw new ApiUsageError('nosuchpageid', `There is no page with ID ${pageId}.`);
    const props = new Set(p.prop ?? DEFAULT_PROPS.split('|'));
    const wrap = p.wrapoutputclass;
    const fromText = sources === 0;
    if (fromText && p.text === undefined && title !== undefined) {
      ctx.addWarning('parse', { code: 'titlewithouttext', text: '"title" used without "text", and parsed page properties were requested. Did you mean to use "page" instead of "title"?' });
    }
    // Supplied text without a title or model is wikitext, said once (ApiParse keeps BC so).
    if (fromText && p.text !== undefined && title === undefined && p.contentmodel === undefined) {
      ctx.addWarning('parse', message('parse-nocontentmodel', 'apiwarn-parse-nocontentmodel', ['wikitext']));
    }
    const newSection = p.section === 'new';
    const summaryText = newSection ? newSectionSummary(p.summary ?? '', p.sectiontitle ?? '') : (p.summary ?? '');
    // ApiParse formats a summary when one is given, or a new section's title stands for it.
    const summary = p.summary !== undefined || (newSection && p.sectiontitle !== undefined) ? summaryText : undefined;
    const pageTitle = title ?? 'API';
    const parsedSummary = (of: string) => ctx.deps.clients.content.formatComment({ title: of, comment: summaryText, samePage: newSection }).then((x) => x.html);
    // WikitextContent::addSectionHeader: a new section's title heads the supplied text.
    const text = fromText && newSection && p.sectiontitle !== undefined ? `== ${p.sectiontitle} ==\n\n${p.text ?? ''}` : p.text;
    // The pre-save transform applies to supplied text only (ApiParse's text branch).
    const pstText =
      fromText && (p.pst || p.onlypst)
        ? (
            await ctx.deps.clients.content.preSaveTransform({
              title: pageTitle,
              text: text ?? '',
              userName: ctx.caller.user.name,
              userAnonymous: ctx.caller.user.anonymous,
              signature: await signaturePreference(ctx.deps, ctx.caller, [text]),
            })
          ).text
        : undefined;
    if (fromText && p.onlypst) {
      const only: ResultObject = { text: pstText ?? '' };
      if (props.has('wikitext')) only.wikitext = text ?? '';
      if (summary !== undefined) only.parsedsummary = await parsedSummary(pageTitle);
      only[META.BC_SUBELEMENTS] = ['text', 'wikitext', 'parsedsummary'];
      ctx.result.parse = only;
      return;
    }
    const model = p.contentmodel ?? 'wikitext';
    if (fromText && p.contentformat !== undefined && !supportsFormat(model, p.contentformat)) {
      throw new ApiUsageError('badformat-generic', `The requested format ${p.contentformat} is not supported for content model ${model}.`);
    }
    if (oldId !== undefined) await assertOldTextVisible(ctx, oldId);
    const r = await ctx.deps.clients.content.parse({
      hasText: fromText,
      text: (p.pst ? pstText : undefined) ?? text ?? '',
      title: title ?? '',
      page: page ?? '',
      pageId: pageId ?? 0,
      revId: oldId ?? 0,
      section: p.section ?? '',
      // disablepp is the deprecated name of disablelimitreport (ParserOutput's includeDebugInfo).
      disableLimitReport: p.disablelimitreport || p.disablepp,
      disableEditSection: p.disableeditsection,
      hasWrapClass: wrap !== 'mw-parser-output',
      wrapClass: wrap,
      contentModel: p.contentmodel ?? '',
      redirects: p.redirects,
      textRevId: fromText ? (p.revid ?? 0) : 0,
    });
    if (r.revisionNotOf !== '') ctx.addWarning('parse', message('revwrongpage', 'apierror-revwrongpage', [p.revid ?? 0, r.revisionNotOf]));

    const out: ResultObject = { title: r.title, pageid: r.pageId };
    if (!fromText && props.has('revid')) out.revid = r.revId;
    if (r.redirects.length > 0)
      out.redirects = setIndexedTagName(
        r.redirects.map((x) => ({ from: x.from, to: x.to, ...(x.tofragment ? { tofragment: x.tofragment } : {}) })),
        'r',
      );
    if (props.has('text')) out.text = p.disabletoc ? withoutToc(r.html) : r.html;
    if (summary !== undefined) out.parsedsummary = await parsedSummary(r.title);
    if (props.has('langlinks')) {
      out.langlinks = setIndexedTagName(
        r.langLinks.map((l) => setContentValue({ lang: l.lang, url: l.url, langname: l.autonym, autonym: l.autonym }, 'title', l.title)),
        'll',
      );
    }
    // ApiParse::formatCategoryLinks reads which categories are hidden (their pages' hiddencat).
    const hidden = props.has('categories') || props.has('categorieshtml') ? await hiddenCategories(ctx, r) : new Set<string>();
    if (props.has('categories')) {
      out.categories = setIndexedTagName(
        r.categories.map((c) => setContentValue({ sortkey: c.sortkey, ...(c.missing ? { missing: true } : hidden.has(c.name) ? { hidden: true } : {}) }, 'category', c.name)),
        'cl',
      );
    }
    if (props.has('categorieshtml')) out.categorieshtml = await categoriesBox(ctx, r, hidden);
    const linkList = (links: ParseResponse['links'], tag: string) =>
      setIndexedTagName(
        links.map((l) => setContentValue({ ns: l.ns, exists: l.exists }, 'title', l.title)),
        tag,
      );
    if (props.has('links')) out.links = linkList(r.links, 'pl');
    if (props.has('templates')) out.templates = linkList(r.templates, 'tl');
    if (props.has('images')) out.images = setIndexedTagName([...r.images], 'img');
    if (props.has('externallinks')) out.externallinks = setIndexedTagName([...r.externalLinks], 'el');
    if (props.has('sections')) {
      out.sections = setIndexedTagName(
        r.sections.map((s) => ({
          toclevel: s.toclevel,
          level: String(s.level),
          line: s.line,
          number: s.number,
          index: s.index,
          fromtitle: s.fromtitle === '' ? false : s.fromtitle,
          byteoffset: s.byteoffset < 0 ? null : s.byteoffset,
          anchor: s.anchor,
        })),
        's',
      );
      out.showtoc = r.showToc;
    }
    if (props.has('parsewarnings')) out.parsewarnings = setIndexedTagName([...r.warnings], 'pw');
    // RawMessage('$1')->parse() of each warning: wikitext of one line, as a paragraph-less HTML.
    if (props.has('parsewarningshtml')) {
      out.parsewarningshtml = setIndexedTagName(
        await Promise.all(r.warnings.map((w) => ctx.deps.clients.content.formatComment({ title: r.title, comment: w, samePage: false }).then((x) => x.html))),
        'pw',
      );
    }
    if (props.has('displaytitle')) out.displaytitle = r.displayTitle;
    if (props.has('subtitle')) out.subtitle = await subtitleOf(ctx, r);
    if (props.has('headhtml')) out.headhtml = headHtml(r.title, r.ns, ctx.deps.config.sitename, ctx.deps.config.server, ctx.deps.config.lang);
    if (props.has('modules')) {
      const { modules, styles } = outputModules(r.html);
      out.modules = setIndexedTagName(modules, 'm');
      out.modulescripts = setIndexedTagName([], 'm');
      out.modulestyles = setIndexedTagName(styles, 'm');
    }
    // The parser output sets no configuration variables for the page's scripts here.
    if (props.has('jsconfigvars')) out.jsconfigvars = setArrayType({}, 'assoc');
    if (props.has('encodedjsconfigvars')) out.encodedjsconfigvars = '[]';
    if (props.has('modules') && !props.has('jsconfigvars') && !props.has('encodedjsconfigvars')) {
      ctx.addWarning('parse', message('moduleswithoutvars', 'apiwarn-moduleswithoutvars'));
    }
    // Page status indicators (<indicator>) are not rendered by this wiki's parser: none.
    if (props.has('indicators')) out.indicators = setArrayType({}, 'BCkvp', 'name');
    if (props.has('iwlinks')) {
      out.iwlinks = setIndexedTagName(
        r.iwLinks.map((l) => setContentValue({ prefix: l.prefix, url: l.url }, 'title', `${l.prefix}:${l.title}`)),
        'iw',
      );
    }
    if (props.has('wikitext')) {
      out.wikitext = pstText !== undefined ? (text ?? '') : r.wikitext;
      if (pstText !== undefined) out.psttext = pstText;
    }
    if (props.has('properties')) {
      const propsObj: ResultObject = Object.fromEntries(r.properties.map((x) => [x.name, x.value]));
      out.properties = setArrayType(propsObj, 'BCkvp', 'name');
    }
    if (props.has('limitreportdata')) out.limitreportdata = setIndexedTagName(limitReportData(r), 'lr');
    if (props.has('limitreporthtml')) out.limitreporthtml = limitReportHtml(r);
    // The preprocessor tree of the parsed wikitext (the deprecated generatexml asks for it too).
    if (props.has('parsetree') || p.generatexml) out.parsetree = (await ctx.deps.clients.content.expandTemplates({ text: r.wikitext, title: r.title, revId: 0 })).parseTree;
    // formatversion 1 wraps these strings as {"*": …}.
    out[META.BC_SUBELEMENTS] = ['text', 'wikitext', 'psttext', 'parsedsummary', 'categorieshtml', 'headhtml', 'limitreporthtml', 'parsetree'];
    if (props.has('encodedjsconfigvars')) out[META.SUBELEMENTS] = ['encodedjsconfigvars'];
    ctx.result.parse = out;
  },
});
