/*
 * A render worker thread (piscina): renders with a PageLookup whose questions go back to the
 * main thread over a MessagePort, where the database is.
 */
import type { MessagePort } from 'node:worker_threads';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import { renderWikitext, type SiteInfo } from './render.js';
import type { FileFacts, PageFacts, PageLookup, RenderRequest, TemplateSource, TitleRef } from './types.js';

export interface RenderTask {
  req: RenderRequest;
  site: SiteInfo;
  port: MessagePort;
}

/** Several renders in one task (a batch): one thread hand-off and one port for all of them. */
export interface RenderManyTask {
  reqs: RenderRequest[];
  site: SiteInfo;
  port: MessagePort;
}

/** One render of a RenderManyTask: its output, or why it failed (the others still render). */
export type RenderManyResult = { ok: true; out: Awaited<ReturnType<typeof renderWikitext>> } | { ok: false; error: string };

export type LookupMethod = 'sources' | 'exist' | 'files';

export interface LookupCall {
  id: number;
  method: LookupMethod;
  arg: TitleRef[] | string[];
}

export interface LookupReply {
  id: number;
  entries?: [string, unknown][];
  error?: string;
}

const codecs = new Map<string, TitleCodec>();

class PortLookup implements PageLookup {
  private next = 0;
  private readonly pending = new Map<number, { resolve: (v: [string, unknown][]) => void; reject: (e: Error) => void }>();

  constructor(private readonly port: MessagePort) {
    port.on('message', (m: LookupReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.entries ?? []);
    });
  }

  private call(method: LookupMethod, arg: TitleRef[] | string[]): Promise<[string, unknown][]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage({ id, method, arg } satisfies LookupCall);
    });
  }

  async sources(titles: TitleRef[]) {
    return new Map((await this.call('sources', titles)) as [string, TemplateSource][]);
  }
  async exist(titles: TitleRef[]) {
    return new Map((await this.call('exist', titles)) as [string, PageFacts][]);
  }
  async files(names: string[]) {
    return new Map((await this.call('files', names)) as [string, FileFacts][]);
  }
}

function codecOf(site: SiteInfo): TitleCodec {
  const meta = site.metaNamespace || site.name;
  let codec = codecs.get(meta);
  if (!codec) {
    codec = new TitleCodec(new NamespaceTable(meta));
    codecs.set(meta, codec);
  }
  return codec;
}

/** Renders each request in turn; an error fails only its own entry. */
export async function renderMany(codec: TitleCodec, lookup: PageLookup, reqs: RenderRequest[], site: SiteInfo): Promise<RenderManyResult[]> {
  const out: RenderManyResult[] = [];
  for (const req of reqs) {
    try {
      out.push({ ok: true, out: await renderWikitext(codec, lookup, req, site) });
    } catch (e) {
      out.push({ ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

export default async function renderTask(task: RenderTask | RenderManyTask) {
  const codec = codecOf(task.site);
  const lookup = new PortLookup(task.port);
  try {
    return 'reqs' in task ? await renderMany(codec, lookup, task.reqs, task.site) : await renderWikitext(codec, lookup, task.req, task.site);
  } finally {
    task.port.close();
  }
}
