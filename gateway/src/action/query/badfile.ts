/*
 * MediaWiki's BadFileLookup: the [[MediaWiki:Bad image list]] — list items whose first link names
 * a bad file and whose further links are the pages where it may still be shown. Read once per
 * request (prop=imageinfo's badfile).
 */
import type { ActionContext } from '../types.js';

export interface PageKey {
  ns: number;
  dbkey: string;
}

/** A page's DB key without its namespace prefix. */
const unprefixed = (p: { ns: number; dbkey: string }) => (p.ns === 0 ? p.dbkey : p.dbkey.slice(p.dbkey.indexOf(':') + 1));

/** The titles of links in a list line, as BadFileLookup::buildBadFilesList matches them. */
const linkTexts = (line: string) => [...line.matchAll(/\[\[:?(.*?)\]\]/g)].map((m) => m[1]!);

/** isBadFile(file DB key, context page?): bad unless the context page is one of its exceptions. */
export async function badFileLookup(ctx: ActionContext): Promise<(name: string, context?: PageKey) => boolean> {
  const content = ctx.deps.clients.content;
  const listPage = (await content.resolvePages({ titles: ['MediaWiki:Bad image list'] })).pages[0];
  const text = listPage && listPage.id > 0 ? ((await content.getRevisions({ pageIds: [listPage.id], withContent: true })).revisions[0]?.content ?? '') : '';
  const lines = text
    .split('\n')
    .filter((l) => l.startsWith('*'))
    .map(linkTexts)
    .filter((links) => links.length > 0);
  const texts = [...new Set(lines.flat())];
  const resolved = new Map<string, PageKey>();
  if (texts.length > 0) {
    const r = await content.resolvePages({ titles: texts });
    const to = new Map(r.normalized.map((n) => [n.from, n.to]));
    const byTitle = new Map(r.pages.map((p) => [p.title, { ns: p.ns, dbkey: unprefixed(p) }]));
    for (const t of texts) {
      const page = byTitle.get(to.get(t) ?? t);
      if (page) resolved.set(t, page);
    }
  }
  const bad = new Map<string, Set<string>>();
  for (const links of lines) {
    // An unparsable first link leaves the next one as the file, as MediaWiki's loop does.
    const titles = links.map((t) => resolved.get(t)).filter((p): p is PageKey => p !== undefined);
    const [file, ...exceptions] = titles;
    if (file) bad.set(file.dbkey, new Set(exceptions.map((e) => `${e.ns}:${e.dbkey}`)));
  }
  return (name, context) => {
    const exceptions = bad.get(name);
    return exceptions !== undefined && !(context && exceptions.has(`${context.ns}:${context.dbkey}`));
  };
}
