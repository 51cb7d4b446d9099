/*
 * An in-memory PageLookup for renderer tests and benchmarks: pages by prefixed title.
 */
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import { redirectTarget } from '../content/wikitext.js';
import { renderWikitext, type SiteInfo } from './render.js';
import { titleKey, type FileFacts, type PageFacts, type PageLookup, type RenderRequest, type TemplateSource, type TitleRef } from './types.js';

export const testCodec = new TitleCodec(new NamespaceTable('Quire'));
export const testSite: SiteInfo = { name: 'Quire', server: 'http://127.0.0.1:8080' };

export class MemoryLookup implements PageLookup {
  private readonly pages = new Map<string, TemplateSource>();
  private readonly fileMap = new Map<string, FileFacts>();
  private nextId = 100;

  constructor(pages: Record<string, string> = {}) {
    for (const [title, text] of Object.entries(pages)) this.set(title, text);
  }

  set(title: string, text: string): TitleRef {
    const t = testCodec.parse(title);
    const id = this.nextId++;
    this.pages.set(titleKey(t), { pageId: id, revId: id * 10, text, isRedirect: redirectTarget(testCodec, text) !== undefined });
    return { ns: t.ns, dbkey: t.dbkey };
  }

  addFile(name: string, facts: FileFacts): void {
    this.fileMap.set(name, facts);
    this.set(`File:${name}`, '');
  }

  async sources(titles: TitleRef[]): Promise<Map<string, TemplateSource>> {
    return new Map(titles.flatMap((t) => (this.pages.has(titleKey(t)) ? [[titleKey(t), this.pages.get(titleKey(t))!] as const] : [])));
  }

  async exist(titles: TitleRef[]): Promise<Map<string, PageFacts>> {
    return this.sources(titles);
  }

  async files(names: string[]): Promise<Map<string, FileFacts>> {
    return new Map(names.flatMap((n) => (this.fileMap.has(n) ? [[n, this.fileMap.get(n)!] as const] : [])));
  }
}

/** Renders `text` as the page `title` with the given wiki pages. */
export async function renderTest(text: string, opts: { title?: string; pages?: MemoryLookup; req?: Partial<RenderRequest>; site?: Partial<SiteInfo> } = {}) {
  const t = testCodec.parse(opts.title ?? 'Test');
  const req: RenderRequest = { text, title: { ns: t.ns, dbkey: t.dbkey }, pageId: 0, revId: 0, ...opts.req };
  return renderWikitext(testCodec, opts.pages ?? new MemoryLookup(), req, { ...testSite, ...opts.site });
}
