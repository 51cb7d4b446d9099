/* meta=siteinfo (MediaWiki's ApiQuerySiteinfo): general, namespaces, namespacealiases, statistics here; the other props in siteinfo-props.ts. */
import type { GetParserInfoResponse, GetStatisticsResponse, ListNamespacesResponse } from '../../clients/types.js';
import { ARTICLE_PATH, SCRIPT_PATH, type GatewayConfig } from '../../config.js';
import { META, setArrayType, setBCBools, setContentValue, setIndexedTagName, type ResultObject } from '../types.js';
import { wfUrlencode } from './encoding.js';
import { queryRunOf } from './run.js';
import { languagesInfo } from './languageinfo.js';
import {
  dbReplLagInfo,
  defaultOptionsInfo,
  extensionsInfo,
  fileExtensionsInfo,
  librariesInfo,
  protocolsInfo,
  restrictionsInfo,
  rightsInfo,
  showHooksInfo,
  skinsInfo,
  specialPageAliasesInfo,
  uploadDialogInfo,
  userGroupsInfo,
} from './siteinfo-props.js';
import { defineModule } from '../define.js';

/**
 * Clients (mwclient, MediaWiki::Bot, pywikibot) parse `generator` as "MediaWiki <version>" to pick
 * their code paths, so it names the MediaWiki release whose API Quire speaks. No extra key names
 * Quire: clients and the golden shapes expect exactly MediaWiki's keys.
 */
export const QUIRE_GENERATOR = 'MediaWiki 1.39.17';
/** The page the content service creates on first start (MediaWiki's MediaWiki:Mainpage). */
export const MAIN_PAGE_TITLE = 'Main Page';

/** Title::legalChars(): the $wgLegalTitleChars default. */
const LEGAL_TITLE_CHARS = ' %!"$&\'()*,\\-.\\/0-9:;=?@A-Z\\\\^_`a-z~\\x80-\\xFF+';
const RTL_LANGUAGES = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'khw', 'ks', 'ku-arab', 'mzn', 'pnb', 'ps', 'sd', 'ug', 'ur', 'yi']);

export function isRtl(lang: string): boolean {
  return RTL_LANGUAGES.has(lang);
}

/** Counters the auth service owns (AuthService.GetUserStatistics): users, active users, sysops. */
export interface UserStatistics {
  users: number;
  activeusers: number;
  admins: number;
}

export function generalInfo(config: GatewayConfig, namespaces: ListNamespacesResponse, now: Date): ResultObject {
  const mainNs = namespaces.namespaces.find((n) => n.id === 0);
  const thumbLimits = setIndexedTagName(setArrayType([120, 150, 180, 200, 250, 300], 'BCassoc'), 'limit');
  const imageLimits = setIndexedTagName(
    setArrayType(
      [
        [320, 240],
        [640, 480],
        [800, 600],
        [1024, 768],
        [1280, 1024],
        [2560, 2048],
      ].map(([width, height]) => ({ width, height })),
      'BCassoc',
    ),
    'limit',
  );
  const data: ResultObject = {
    mainpage: MAIN_PAGE_TITLE,
    base: config.server + ARTICLE_PATH.replace('$1', wfUrlencode(MAIN_PAGE_TITLE.replace(/ /g, '_'))),
    sitename: config.sitename,
    mainpageisdomainroot: false,
    logo: `${config.server}${SCRIPT_PATH}/resources/assets/change-your-logo.svg`,
    generator: QUIRE_GENERATOR,
    // Quire runs on Node.js; the keys stay for clients that read them.
    phpversion: process.versions.node,
    phpsapi: 'node',
    dbtype: 'postgres',
    dbversion: '',
    imagewhitelistenabled: false,
    langconversion: true,
    linkconversion: true,
    titleconversion: true,
    linkprefixcharset: '',
    linkprefix: '',
    linktrail: '/^([a-z]+)(.*)$/sD',
    legaltitlechars: LEGAL_TITLE_CHARS,
    invalidusernamechars: '@:>',
    allunicodefixes: false,
    fixarabicunicode: true,
    fixmalayalamunicode: true,
    case: mainNs?.case || 'first-letter',
    lang: config.lang,
    fallback: setIndexedTagName([], 'lang'),
    rtl: isRtl(config.lang),
    fallback8bitEncoding: 'windows-1252',
    readonly: false,
    writeapi: true,
    maxarticlesize: config.maxArticleSizeKb * 1024,
    timezone: 'UTC',
    timeoffset: 0,
    articlepath: ARTICLE_PATH,
    scriptpath: SCRIPT_PATH,
    script: `${SCRIPT_PATH}/index.php`,
    variantarticlepath: false,
    server: config.server,
    servername: new URL(config.server).hostname,
    wikiid: config.wikiId,
    time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    misermode: false,
    uploadsenabled: true,
    maxuploadsize: config.uploadMaxBytes,
    minuploadchunksize: 1024,
    galleryoptions: { imagesPerRow: 0, imageWidth: 120, imageHeight: 120, captionLength: true, showBytes: true, showDimensions: true, mode: 'traditional' },
    thumblimits: thumbLimits,
    imagelimits: imageLimits,
    favicon: `${config.server}/favicon.ico`,
    centralidlookupprovider: 'local',
    allcentralidlookupproviders: ['local'],
    interwikimagic: true,
    magiclinks: { ISBN: false, PMID: false, RFC: false },
    categorycollation: 'uppercase',
    nofollowlinks: true,
    nofollownsexceptions: [],
    nofollowdomainexceptions: ['mediawiki.org'],
    externallinktarget: false,
  };
  return setBCBools(data, 'variantarticlepath');
}

/** Namespaces keyed by id, in id order (a Map keeps -2 and -1 first). */
export function namespacesInfo(ns: ListNamespacesResponse): Map<number | string, unknown> {
  const data = new Map<number | string, unknown>();
  for (const n of [...ns.namespaces].sort((a, b) => a.id - b.id)) {
    const item: ResultObject = { id: n.id, case: n.case || 'first-letter' };
    setContentValue(item, 'name', n.name);
    item.subpages = n.subpages;
    if (n.canonical) item.canonical = n.canonical.replace(/_/g, ' ');
    item.content = n.content;
    item.nonincludable = n.nonincludable;
    if (n.protection) item.namespaceprotection = n.protection;
    if (n.defaultContentModel) item.defaultcontentmodel = n.defaultContentModel;
    data.set(n.id, item);
  }
  data.set(META.TYPE, 'assoc');
  data.set(META.INDEXED_TAG_NAME, 'ns');
  return data;
}

export function namespaceAliasesInfo(ns: ListNamespacesResponse): ResultObject[] {
  const byId = new Map(ns.namespaces.map((n) => [n.id, n.name]));
  const list = ns.aliases
    .map((a) => ({ id: a.id, alias: a.alias.replace(/_/g, ' ') }))
    // An alias equal to the namespace's own name is not listed.
    .filter((a) => byId.get(a.id) !== a.alias)
    .sort((a, b) => a.id - b.id || (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0))
    .map((a) => setContentValue({ id: a.id }, 'alias', a.alias));
  return setIndexedTagName(list, 'ns');
}

export function statisticsInfo(stats: GetStatisticsResponse, users: UserStatistics): ResultObject {
  return {
    pages: stats.pages,
    articles: stats.articles,
    edits: stats.edits,
    images: stats.images,
    users: users.users,
    activeusers: users.activeusers,
    admins: users.admins,
    jobs: stats.jobs,
  };
}

/** MediaWiki's siprop values (in its order) that Quire answers. */
const SITEINFO_PROPS = [
  'general',
  'namespaces',
  'namespacealiases',
  'specialpagealiases',
  'magicwords',
  'interwikimap',
  'dbrepllag',
  'statistics',
  'usergroups',
  'libraries',
  'extensions',
  'fileextensions',
  'rightsinfo',
  'restrictions',
  'languages',
  'languagevariants',
  'skins',
  'extensiontags',
  'functionhooks',
  'showhooks',
  'variables',
  'protocols',
  'defaultoptions',
  'uploaddialog',
] as const;

/** The parser's magic words as ApiQuerySiteinfo::appendMagicWords lists them. */
export function magicWordsInfo(info: GetParserInfoResponse): ResultObject[] {
  return setIndexedTagName(
    info.magicWords.map((m) => ({ name: m.name, aliases: setIndexedTagName([...m.aliases], 'alias'), 'case-sensitive': m.caseSensitive })),
    'magicword',
  );
}

/** ApiQuerySiteinfo::appendInterwikiMap: prefix, language (interlanguage links), url, protorel. */
export function interwikiMapInfo(info: GetParserInfoResponse, filter: string | undefined): ResultObject[] {
  const entries = filter === 'local' ? [] : info.interwikis;
  return setIndexedTagName(
    entries.map((iw) => {
      const vals: ResultObject = { prefix: iw.prefix };
      if (iw.language) vals.language = iw.language;
      vals.url = iw.url;
      vals.protorel = iw.url.startsWith('//');
      return vals;
    }),
    'iw',
  );
}

/** ApiQuerySiteinfo::appendLanguageVariants: language → variant → fallbacks (kvp with `code` in XML). */
export function languageVariantsInfo(info: GetParserInfoResponse): ResultObject {
  const languages: ResultObject = {};
  for (const lang of info.languageVariants) {
    const variants: ResultObject = {};
    for (const v of lang.variants) variants[v.variant] = { fallbacks: setIndexedTagName([...v.fallbacks], 'variant') };
    languages[lang.language] = setIndexedTagName(setArrayType(variants, 'kvp', 'code'), 'variant');
  }
  return setIndexedTagName(setArrayType(languages, 'kvp', 'code'), 'lang');
}

/** extensiontags, functionhooks and variables: plain lists. */
export function parserListsInfo(info: GetParserInfoResponse): { extensiontags: string[]; functionhooks: string[]; variables: string[] } {
  return {
    extensiontags: setIndexedTagName(
      info.extensionTags.map((t) => `<${t}>`),
      't',
    ),
    functionhooks: setIndexedTagName([...info.functionHooks], 'h'),
    variables: setIndexedTagName([...info.variables], 'v'),
  };
}

export const siteinfoModule = defineModule({
  name: 'siteinfo',
  group: 'meta',
  prefix: 'si',
  summary: 'Return general information about the site.',
  params: {
    prop: { type: SITEINFO_PROPS, multi: true, default: 'general', help: 'Which information to get.' },
    // Quire's map has no local entries (no iw_local flag), so "local" lists none.
    filteriw: { type: ['local', '!local'], help: 'Return only local or only nonlocal entries of the interwiki map.' },
    // One database: every server's lag is the one listed anyway.
    showalldb: { type: 'boolean', default: false, help: 'List all database servers, not just the one lagging the most.' },
    numberingroup: { type: 'boolean', default: false, help: 'Lists the number of users in user groups.' },
    // Without the CLDR extension names stay autonyms in every language, as on the reference wiki.
    inlanguagecode: { type: 'string', help: 'Language code for localised language names (best effort) and skin names.' },
  },
  flags: {},
  examples: {
    'action=query&meta=siteinfo&siprop=general|namespaces|namespacealiases|statistics': 'Fetch site information.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = ctx.params.prop ?? ['general'];
    const { deps } = ctx;
    for (const prop of props) {
      switch (prop) {
        case 'general':
          run.data.general = generalInfo(deps.config, await deps.site.namespaces(), new Date());
          break;
        case 'namespaces':
          run.data.namespaces = namespacesInfo(await deps.site.namespaces());
          break;
        case 'namespacealiases':
          run.data.namespacealiases = namespaceAliasesInfo(await deps.site.namespaces());
          break;
        case 'specialpagealiases':
          run.data.specialpagealiases = specialPageAliasesInfo();
          break;
        case 'interwikimap':
          run.data.interwikimap = interwikiMapInfo(await deps.clients.content.getParserInfo(), ctx.params.filteriw);
          break;
        case 'languages':
          run.data.languages = languagesInfo();
          break;
        case 'languagevariants':
          run.data.languagevariants = languageVariantsInfo(await deps.clients.content.getParserInfo());
          break;
        case 'magicwords':
          run.data.magicwords = magicWordsInfo(await deps.clients.content.getParserInfo());
          break;
        case 'extensiontags':
        case 'functionhooks':
        case 'variables':
          run.data[prop] = parserListsInfo(await deps.clients.content.getParserInfo())[prop];
          break;
        case 'fileextensions':
          run.data.fileextensions = fileExtensionsInfo((await deps.clients.content.getParserInfo()).fileExtensions);
          break;
        case 'dbrepllag':
          run.data.dbrepllag = dbReplLagInfo(await deps.clients.content.getReplicationLag());
          break;
        case 'usergroups':
          run.data.usergroups = userGroupsInfo(await deps.clients.auth.listGroupPermissions(ctx.params.numberingroup), ctx.params.numberingroup);
          break;
        case 'libraries':
          run.data.libraries = librariesInfo();
          break;
        case 'extensions':
          run.data.extensions = extensionsInfo();
          break;
        case 'rightsinfo':
          run.data.rightsinfo = rightsInfo();
          break;
        case 'restrictions':
          run.data.restrictions = restrictionsInfo();
          break;
        case 'skins':
          run.data.skins = skinsInfo();
          break;
        case 'showhooks':
          run.data.showhooks = showHooksInfo();
          break;
        case 'protocols':
          run.data.protocols = protocolsInfo();
          break;
        case 'defaultoptions':
          {
            const [namespaces, parser] = await Promise.all([deps.site.namespaces(), deps.clients.content.getParserInfo()]);
            run.data.defaultoptions = defaultOptionsInfo(
              namespaces.namespaces.map((n) => n.id),
              parser.languageVariants.map((l) => l.language),
            );
          }
          break;
        case 'uploaddialog':
          run.data.uploaddialog = uploadDialogInfo();
          break;
        case 'statistics':
          {
            const [pages, users] = await Promise.all([deps.clients.content.getStatistics(), deps.clients.auth.getUserStatistics()]);
            run.data.statistics = statisticsInfo(pages, { users: users.users, activeusers: users.activeUsers, admins: users.admins });
          }
          break;
      }
    }
  },
});
