/*
 * action=imagerotate (MediaWiki's ApiImageRotate) over a page set whose titles default to the File
 * namespace. Quire has no image scaler, so every file answers as MediaWiki does when its media
 * handler cannot rotate (BitmapHandler::canRotate without ImageMagick): a per-file Failure,
 * filetypecannotberotated — before the rights check, as MediaWiki orders them; titles without a
 * file get filedoesnotexist.
 */
import { defineModule } from '../define.js';
import { setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { actionPageSet, addPageSetContinuation, invalidEntries, PAGE_SET_EXTRA_PARAMS } from '../query/action-pageset.js';
import { TAGS_PARAM } from './writes.js';

const NS_FILE = 6;

/** A per-file failure as ApiErrorFormatter::arrayFromStatus lists one fatal message. */
const failure = (key: string, code: string) => ({ result: 'Failure', errors: setIndexedTagName([{ message: key, params: setIndexedTagName([], 'param'), code, type: 'error' }], 'error') });

/**
 * ApiPageSet with NS_FILE as the default namespace: a title without a namespace prefix (and
 * without a leading colon) is a file's.
 */
async function inFileNamespace(ctx: ActionContext, titles: string[]): Promise<string[]> {
  const { namespaces, aliases } = await ctx.deps.site.namespaces();
  const norm = (s: string) => s.replace(/_/g, ' ').trim().toLowerCase();
  const prefixes = new Set([...namespaces.flatMap((n) => [n.name, n.canonical]), ...aliases.map((a) => a.alias)].filter((n) => n !== '').map(norm));
  return titles.map((t) => {
    const colon = t.indexOf(':');
    if (t.trimStart().startsWith(':') || (colon > 0 && prefixes.has(norm(t.slice(0, colon))))) return t;
    return `File:${t}`;
  });
}

export const imagerotateModule = defineModule({
  name: 'imagerotate',
  group: 'action',
  prefix: '',
  summary: 'Rotate one or more images.',
  params: {
    rotation: { type: ['90', '180', '270'], required: true, help: 'Degrees to rotate image clockwise.' },
    tags: { ...TAGS_PARAM, help: 'Tags to apply to the entry in the upload log.' },
    titles: { type: 'string', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of titles to work on.' },
    pageids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of page IDs to work on.' },
    redirects: { type: 'boolean', default: false, help: 'Automatically resolve redirects in titles, pageids, and revids, and in pages returned by generator.' },
    ...PAGE_SET_EXTRA_PARAMS,
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=imagerotate&titles=File:Example.jpg&rotation=90&token=123ABC': 'Rotate <kbd>File:Example.png</kbd> by <kbd>90</kbd> degrees.',
    'action=imagerotate&generator=categorymembers&gcmtitle=Category:Flip&gcmtype=file&rotation=180&token=123ABC': 'Rotate all images in <kbd>Category:Flip</kbd> by <kbd>180</kbd> degrees.',
  },
  async execute(ctx) {
    const p = ctx.params;
    // The same context with the titles in the File namespace (the page set reads ctx.params).
    const withFileTitles = p.titles === undefined ? ctx : { ...ctx, params: { ...p, titles: await inFileNamespace(ctx, p.titles) } };
    const { pageSet: ps, continuation } = await actionPageSet(withFileTitles);
    const out: ResultObject[] = invalidEntries(ps, false);
    const pages = [...ps.good.map((page) => ({ id: page.id, page, missing: false })), ...ps.missing.map(({ page }) => ({ id: 0, page, missing: true }))];
    const files = pages.filter((e) => e.page.ns === NS_FILE);
    const info = files.length ? await ctx.deps.clients.content.getFileInfo({ titles: files.map((e) => e.page.title), limit: 1 }) : { files: [] };
    const exists = new Set(files.filter((_, i) => info.files[i]?.exists).map((e) => e.page.title));
    for (const e of pages) {
      const r: ResultObject = { id: e.id, ns: e.page.ns, title: e.page.title };
      if (e.missing) r.missing = true;
      Object.assign(r, exists.has(e.page.title) ? failure('apierror-filetypecannotberotated', 'filetypecannotberotated') : failure('apierror-filedoesnotexist', 'filedoesnotexist'));
      out.push(r);
    }
    addPageSetContinuation(ctx.result, continuation);
    ctx.result.imagerotate = setIndexedTagName(out, 'page');
  },
});
