/*
 * A render worker thread (piscina): renders with a PageLookup whose questions go back to the
 * main thread over a MessagePort, where the database is.
 */
import type { MessagePort } from 'node:worker_threads';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import { renderWikitext, type SiteInfo } from './render.js';
import { RenderDeadlineExceeded, titleKey, type FileFacts, type PageFacts, type PageLookup, type RenderRequest, type TemplateSource, type TitleRef } from './types.js';

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

/**
 * A lookup remembering its answers (absences too) for one sequence of renders: the renders of a
 * pre-save transform's substitutions mostly ask for the same few templates, and each question
 * would otherwise cross to the database again.
 */
class RememberingLookup implements PageLookup {
  private readonly memo = { sources: new Map<string, TemplateSource | undefined>(), exist: new Map<string, PageFacts | undefined>(), files: new Map<string, FileFacts | undefined>() };

  constructor(private readonly lookup: PageLookup) {}

  private async ask<K, V>(memo: Map<string, V | undefined>, keys: K[], keyOf: (k: K) => string, fetch: (ks: K[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const missing = keys.filter((k) => !memo.has(keyOf(k)));
    if (missing.length) {
      const got = await fetch(missing);
      for (const k of missing) memo.set(keyOf(k), got.get(keyOf(k)));
    }
    const out = new Map<string, V>();
    for (const k of keys) {
      const v = memo.get(keyOf(k));
      if (v !== undefined) out.set(keyOf(k), v);
    }
    return out;
  }

  sources(titles: TitleRef[]) {
    return this.ask(this.memo.sources, titles, titleKey, (t) => this.lookup.sources(t));
  }
  exist(titles: TitleRef[]) {
    return this.ask(this.memo.exist, titles, titleKey, (t) => this.lookup.exist(t));
  }
  files(names: string[]) {
    return this.ask(
      this.memo.files,
      names,
      (n) => n,
      (n) => this.lookup.files(n),
    );
  }
}

/** A render of a sequence not started: the sequence's deadline had passed. */
export const SEQUENCE_DEADLINE_PASSED = 'the deadline of the sequence passed';

/**
 * Renders each request in turn; an error fails only its own entry. With a deadline (ms since the
 * epoch), the renders not started by then fail (SEQUENCE_DEADLINE_PASSED): on the calling thread
 * nothing else can stop a long sequence.
 */
export async function renderMany(codec: TitleCodec, lookup: PageLookup, reqs: RenderRequest[], site: SiteInfo, deadline?: number): Promise<RenderManyResult[]> {
  const out: RenderManyResult[] = [];
  if (reqs.length > 1) lookup = new RememberingLookup(lookup);
  for (const req of reqs) {
    if (deadline !== undefined && Date.now() > deadline) {
      out.push({ ok: false, error: SEQUENCE_DEADLINE_PASSED });
      continue;
    }
    try {
      out.push({ ok: true, out: await renderWikitext(codec, lookup, deadline === undefined ? req : { ...req, deadline }, site) });
    } catch (e) {
      out.push({ ok: false, error: e instanceof RenderDeadlineExceeded ? SEQUENCE_DEADLINE_PASSED : e instanceof Error ? e.message : String(e) });
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
