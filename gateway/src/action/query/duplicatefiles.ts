/*
 * prop=duplicatefiles (MediaWiki's ApiQueryDuplicateFiles): for each file of the page set, the
 * other files with the same content (SHA-1), by name; a generator of those files. This wiki has
 * one local repository, so no duplicate is `shared` and dflocalonly changes nothing.
 */
import type { FileVersion } from '../../clients/types.js';
import type { ResultObject } from '../types.js';
import { badContinue } from './continuation.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

const NS_FILE = 6;
/** How many files one SHA-1 lookup returns at most (a duplicate set larger than this is cut). */
const MAX_DUPLICATES = 5000;

interface Duplicate {
  /** Result id of the page set's file page. */
  pageId: number;
  file: FileVersion;
}

/** The page set's File: titles (existing and missing) by DB key, in name order. */
function filesOf(run: QueryRun): [string, number][] {
  const ps = run.pageSet;
  const files = [...ps.good.map((p): [string, number, number] => [p.title, p.ns, p.id]), ...ps.missing.map(({ id, page }): [string, number, number] => [page.title, page.ns, id])]
    .filter(([, ns]) => ns === NS_FILE)
    .map(([title, , id]): [string, number] => [title.slice(title.indexOf(':') + 1).replace(/ /g, '_'), id]);
  return files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** ApiQueryDuplicateFiles::run: the duplicates to list and where the next batch starts ("<file>|<duplicate>"). */
async function findDuplicates(ctx: ContextOf<typeof params>, run: QueryRun): Promise<{ found: Duplicate[]; next: string }> {
  const p = ctx.params;
  let files = filesOf(run);
  if (p.dir === 'descending') files.reverse();
  let skipUntil: string | undefined;
  if (typeof p.continue === 'string') {
    const parts = p.continue.split('|');
    if (parts.length !== 2) throw badContinue();
    const [fromFile, fromDup] = parts as [string, string];
    // As MediaWiki: files before the continuation's file (by name, whatever the direction) are dropped.
    const start = files.findIndex(([name]) => !(name < fromFile));
    files = start < 0 ? [] : files.slice(start);
    skipUntil = fromDup;
  }
  if (!files.length) return { found: [], next: '' };
  const info = await ctx.deps.clients.content.getFileInfo({ titles: files.map(([name]) => `File:${name}`), limit: 1 });
  const sha1Of = new Map(info.files.filter((f) => f.exists && f.versions[0]).map((f) => [f.name, f.versions[0]!.sha1]));
  const bySha1 = new Map<string, FileVersion[]>();
  for (const sha1 of new Set(sha1Of.values())) {
    bySha1.set(sha1, (await ctx.deps.clients.content.listFiles({ sort: 'name', sha1, limit: MAX_DUPLICATES })).files);
  }
  const limit = p.limit;
  const found: Duplicate[] = [];
  for (const [name, pageId] of files) {
    const sha1 = sha1Of.get(name);
    if (sha1 === undefined) continue;
    const dups = [...(bySha1.get(sha1) ?? [])];
    if (p.dir === 'descending') dups.reverse();
    for (const dup of dups) {
      if (dup.name === name) continue;
      if (skipUntil !== undefined && dup.name < skipUntil) continue;
      skipUntil = undefined;
      if (found.length >= limit) return { found, next: `${name}|${dup.name}` };
      found.push({ pageId, file: dup });
    }
  }
  return { found, next: '' };
}

const params = defineParams({
  limit: { ...LIMIT_PARAM, help: 'How many duplicate files to return.' },
  continue: CONTINUE_PARAM,
  dir: { ...DIR_PARAM, help: 'The direction in which to list.' },
  localonly: { type: 'boolean', default: false, help: 'Look only for files in the local repository.' },
});

export const duplicatefilesModule = defineGenerator({
  name: 'duplicatefiles',
  group: 'prop',
  prefix: 'df',
  summary: 'List all files that are duplicates of the given files based on hash values.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&titles=File:Albert_Einstein_Head.jpg&prop=duplicatefiles': 'Look for duplicates of File:Albert Einstein Head.jpg.',
    'action=query&generator=allimages&prop=duplicatefiles': 'Look for duplicates of all files.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const { found, next } = await findDuplicates(ctx, run);
    for (const { pageId, file } of found) {
      const item: ResultObject = { name: file.name, timestamp: file.timestamp, shared: false };
      if (file.user) item.user = file.user;
      addPageSubItem(run.pages, pageId, 'duplicatefiles', 'df', item);
    }
    setContinue(ctx, run, 'dfcontinue', next, false);
  },
  async generate(ctx, run: QueryRun) {
    const { found, next } = await findDuplicates(ctx, run);
    setContinue(ctx, run, 'dfcontinue', next, true);
    return { titles: found.map((d) => d.file.title) };
  },
});
