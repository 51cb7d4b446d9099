/* Test support for the query modules: golden samples, metadata stripping and a fake ActionContext. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GOLDEN_DIR } from '@quire/kit/testing';
import type {
  ListNamespacesResponse,
  Namespace,
  PageRecord,
  GetStatisticsResponse,
  ResolvePagesRequest,
  ResolvePagesResponse,
  GetRevisionsRequest,
  GetRevisionsResponse,
  User,
} from '../../clients/types.js';
import type { GatewayDeps } from '../../context.js';
import type { GatewayConfig } from '../../config.js';
import type { ActionContext, ApiMessage, ModuleDecl, Params } from '../types.js';
import { querySubmodules } from './index.js';

/** The JSON body of a golden sample file. */
export function goldenBody(file: string): Record<string, unknown> {
  const text = readFileSync(path.join(GOLDEN_DIR, file), 'utf8');
  const blank = /\r?\n\r?\n/.exec(text);
  return JSON.parse(blank ? text.slice(blank.index + blank[0].length) : text) as Record<string, unknown>;
}

/** The value with every metadata key ("_…") removed, i.e. what formatversion=2 prints for plain data. */
export function stripMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripMeta);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !k.startsWith('_'))
        .map(([k, v]) => [k, stripMeta(v)]),
    );
  }
  return value;
}

export const TEST_CONFIG = {
  server: 'http://127.0.0.1:8080',
  sitename: 'AnchorWiki',
  wikiId: 'my_wiki',
  lang: 'en',
  maxArticleSizeKb: 2048,
  uploadMaxBytes: 104857600,
} as GatewayConfig;

export const ANON: User = { id: 0, name: '127.0.0.1', anonymous: true, groups: ['*'], rights: ['read', 'edit'] };

export interface FakeContent {
  namespaces?: ListNamespacesResponse;
  statistics?: GetStatisticsResponse;
  resolvePages?: (req: Partial<ResolvePagesRequest>) => ResolvePagesResponse;
  getRevisions?: (req: Partial<GetRevisionsRequest>) => GetRevisionsResponse;
  tokens?: (sessionId: string, types: string[]) => Record<string, string>;
}

export interface FakeRun {
  ctx: ActionContext;
  warnings: { module: string; msg: ApiMessage }[];
  calls: { method: string; req: unknown }[];
}

/** An ActionContext over fake services; submodule params are taken from `subParams` by module name. */
export function fakeContext(
  module: ModuleDecl,
  params: Params,
  fake: FakeContent,
  opts: { subParams?: Record<string, Params>; raw?: Record<string, string>; user?: User; highLimits?: boolean } = {},
): FakeRun {
  const warnings: FakeRun['warnings'] = [];
  const calls: FakeRun['calls'] = [];
  const record = <T>(method: string, req: unknown, answer: (() => T) | undefined): Promise<T> => {
    calls.push({ method, req });
    if (!answer) throw new Error(`unexpected call ${method}`);
    return Promise.resolve(answer());
  };
  const content = {
    listNamespaces: () => record('listNamespaces', {}, fake.namespaces ? () => fake.namespaces! : undefined),
    getStatistics: () => record('getStatistics', {}, fake.statistics ? () => fake.statistics! : undefined),
    resolvePages: (req: Partial<ResolvePagesRequest>) => record('resolvePages', req, fake.resolvePages ? () => fake.resolvePages!(req) : undefined),
    getRevisions: (req: Partial<GetRevisionsRequest>) => record('getRevisions', req, fake.getRevisions ? () => fake.getRevisions!(req) : undefined),
  };
  const auth = {
    getTokens: (sessionId: string, types: string[]) => record('getTokens', { sessionId, types }, fake.tokens ? () => fake.tokens!(sessionId, types) : undefined),
    getTokensWithSession: (sessionId: string, types: string[]) =>
      record('getTokens', { sessionId, types }, fake.tokens ? () => ({ tokens: fake.tokens!(sessionId, types), newSessionId: '' }) : undefined),
  };
  const deps = {
    clients: { content, auth },
    config: TEST_CONFIG,
    site: { namespaces: () => content.listNamespaces() },
  } as unknown as GatewayDeps;
  const user = opts.user ?? ANON;
  const ctx: ActionContext = {
    module,
    params,
    caller: { user, sessionId: '', sessionLost: false, ip: '127.0.0.1' },
    deps,
    formatVersion: 2,
    method: 'GET',
    highLimits: opts.highLimits ?? false,
    raw: new Map(Object.entries(opts.raw ?? {})),
    files: new Map(),
    result: {},
    addWarning: (m, msg) => warnings.push({ module: m, msg }),
    markUsed: () => {},
    setRawOutput: () => {
      throw new Error('query modules never send raw output');
    },
    warningsComment: () => '',
    validateSubmodule: (sub) => opts.subParams?.[sub.name] ?? {},
    requirePostedParameters: () => {},
    setCacheMode: () => {},
    setCacheMaxAge: () => {},
    registry: {
      modules: (group) => querySubmodules.filter((m) => m.group === group),
      get: (group, name) => querySubmodules.find((m) => m.group === group && m.name === name),
      pathOf: (m) => (m.group === 'action' ? m.name : `query+${m.name}`),
      byPath: () => undefined,
      main: module,
    },
  };
  return { ctx, warnings, calls };
}

/** MediaWiki 1.39's default namespaces as the content service lists them for AnchorWiki. */
export const NAMESPACES: ListNamespacesResponse = {
  namespaces: [
    [-2, 'Media', 'Media', false],
    [-1, 'Special', 'Special', false],
    [0, '', '', false],
    [1, 'Talk', 'Talk', true],
    [2, 'User', 'User', true],
    [3, 'User talk', 'User talk', true],
    [4, 'AnchorWiki', 'Project', true],
    [5, 'AnchorWiki talk', 'Project talk', true],
    [6, 'File', 'File', false],
    [7, 'File talk', 'File talk', true],
    [8, 'MediaWiki', 'MediaWiki', true],
    [9, 'MediaWiki talk', 'MediaWiki talk', true],
    [10, 'Template', 'Template', true],
    [11, 'Template talk', 'Template talk', true],
    [12, 'Help', 'Help', true],
    [13, 'Help talk', 'Help talk', true],
    [14, 'Category', 'Category', false],
    [15, 'Category talk', 'Category talk', true],
  ].map(
    ([id, name, canonical, subpages]): Namespace => ({
      id: id as number,
      name: name as string,
      canonical: canonical as string,
      case: 'first-letter',
      content: id === 0,
      subpages: subpages as boolean,
      nonincludable: false,
      defaultContentModel: '',
      protection: id === 8 ? 'editinterface' : '',
    }),
  ),
  aliases: [
    { id: 7, alias: 'Image_talk' },
    { id: 6, alias: 'Image' },
    { id: 6, alias: 'File' },
  ],
};

/** A page record of the page set with defaults for what a test leaves out. */
export function page(p: Partial<PageRecord> & { title: string; ns: number }): PageRecord {
  return {
    id: 0,
    dbkey: p.title.replace(/ /g, '_'),
    missing: false,
    special: false,
    latestRevId: 0,
    latestTimestamp: '',
    touched: '',
    length: 0,
    redirect: false,
    isNew: false,
    contentModel: 'wikitext',
    pageLanguage: 'en',
    redirectTarget: '',
    ...p,
  };
}
