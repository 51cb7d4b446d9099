/*
 * Rendering off the request path: a piscina pool of worker threads, each rendering with lookups
 * answered here on the main thread (where the database connection is). With 0 threads the
 * render runs in-process (a single-core deployment, or tools).
 *
 * No render holds a thread for long: one still running at its deadline is stopped (its thread is
 * terminated; another starts on demand) and fails with `timeouterror-text`. And the pool may start
 * spare threads while every other one is busy, so that one slow render (a hostile text) does not
 * queue every other page view and parse behind it until its deadline.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { counter, GrpcStatus, histogram, ServiceError } from '@quire/kit';
import type { TitleCodec } from '../title/codec.js';
import { renderWikitext, type SiteInfo } from './render.js';
import { RenderDeadlineExceeded, type PageLookup, type RenderRequest } from './types.js';
import { renderMany, SEQUENCE_DEADLINE_PASSED, type LookupCall, type LookupReply, type RenderManyResult, type RenderManyTask, type RenderTask } from './worker.js';

export type RenderOutput = Awaited<ReturnType<typeof renderWikitext>>;
export type { RenderManyResult };

/** The worker beside this module: worker.ts under tsx, worker.js in the compiled build (dist/). */
const WORKER_FILE = import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js';

const renderSeconds = histogram(
  'quire_render_duration_seconds',
  'Wikitext render time, queueing in the worker pool included, by where it ran (worker, inprocess); a batch of renders in one task counts once',
  ['where'],
);

const renderTimeouts = counter('quire_render_timeouts_total', 'Renders stopped at their deadline (their worker thread terminated)');

export interface RenderPoolOptions {
  /** A render on a worker thread still running after this long is stopped (default 10 s). */
  timeoutMs?: number;
  /** Threads the pool may start beyond `threads` while all of those are busy (default 1). */
  spareThreads?: number;
}

export const DEFAULT_RENDER_TIMEOUT_MS = 10_000;

/**
 * A render stopped at its deadline, as MediaWiki's request time limit reports itself (its
 * RequestTimeout's message; WikiLambda dies with the same): a resource the request exhausted,
 * not a fault of the wiki, and not worth retrying at once.
 */
export function renderTimeoutError(timeoutMs: number): ServiceError {
  const seconds = Math.max(1, Math.round(timeoutMs / 1000));
  return new ServiceError(GrpcStatus.RESOURCE_EXHAUSTED, 'timeouterror-text', `The maximum request time of ${seconds} ${seconds === 1 ? 'second' : 'seconds'} was exceeded.`, {
    retryAfter: seconds,
  });
}

export class RenderPool {
  private readonly pool: Piscina | undefined;
  private readonly timeoutMs: number;

  constructor(
    threads: number,
    private readonly codec: TitleCodec,
    private readonly site: SiteInfo,
    opts: RenderPoolOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
    this.pool =
      threads > 0
        ? // No thread until the first render, and none kept once idle for a minute: a render thread
          // loads the whole renderer (tens of MB); a wiki that is only read from its caches needs
          // none (start-up time and memory). Piscina starts a thread beyond those busy
          // only for a task that would otherwise wait, so the spare ones run only under load.
          new Piscina({
            filename: new URL(WORKER_FILE, import.meta.url).href,
            minThreads: 0,
            maxThreads: threads + (opts.spareThreads ?? 1),
            idleTimeout: 60_000,
          })
        : undefined;
  }

  /** Render threads running now (0 until the first render, and again after an idle minute). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /** Renders waiting for a worker thread. */
  get queueSize(): number {
    return this.pool?.queueSize ?? 0;
  }

  /**
   * Renders on the calling thread, whatever the pool's size, under the same deadline as a worker
   * thread's render (checked by the template expansion itself: the other stages are linear).
   */
  async renderInProcess(req: RenderRequest, lookup: PageLookup): Promise<RenderOutput> {
    const end = renderSeconds.startTimer({ where: 'inprocess' });
    try {
      return await renderWikitext(this.codec, lookup, { ...req, deadline: Date.now() + this.timeoutMs }, this.site);
    } catch (e) {
      if (e instanceof RenderDeadlineExceeded) {
        renderTimeouts.inc();
        throw renderTimeoutError(this.timeoutMs);
      }
      throw e;
    } finally {
      end();
    }
  }

  async render(req: RenderRequest, lookup: PageLookup): Promise<RenderOutput> {
    if (!this.pool) return this.renderInProcess(req, lookup);
    return (await this.runTask(this.pool, (port) => ({ req, site: this.site, port }) satisfies RenderTask, lookup)) as RenderOutput;
  }

  /**
   * Renders `reqs` one after the other on the calling thread; an error fails only its entry. With a
   * deadline, the renders it passes fail (SEQUENCE_DEADLINE_PASSED).
   */
  async renderManyInProcess(reqs: RenderRequest[], lookup: PageLookup, deadline?: number): Promise<RenderManyResult[]> {
    const end = renderSeconds.startTimer({ where: 'inprocess' });
    try {
      return await renderMany(this.codec, lookup, reqs, this.site, deadline);
    } finally {
      end();
    }
  }

  /**
   * Renders `reqs` one after the other in one task of the pool (one thread hand-off and one
   * lookup port for all of them), answered in order; an error fails only its entry.
   */
  async renderMany(reqs: RenderRequest[], lookup: PageLookup): Promise<RenderManyResult[]> {
    if (!this.pool) return this.renderManyInProcess(reqs, lookup);
    return (await this.runTask(this.pool, (port) => ({ reqs, site: this.site, port }) satisfies RenderManyTask, lookup)) as RenderManyResult[];
  }

  /**
   * Renders `reqs` one after the other as one unit of work under one deadline (the pre-save
   * transform's substitutions: thousands of small renders must not cost thousands of hand-offs,
   * nor run past the deadline a single render has). In a worker task when `inProcess` is false;
   * on the calling thread the deadline is checked between renders. Fails with the timeout error
   * when the deadline passes.
   */
  async renderSequence(reqs: RenderRequest[], lookup: PageLookup, inProcess: boolean): Promise<RenderManyResult[]> {
    if (reqs.length === 0) return [];
    if (this.pool && !inProcess) return this.renderMany(reqs, lookup);
    const results = await this.renderManyInProcess(reqs, lookup, Date.now() + this.timeoutMs);
    if (results.some((r) => !r.ok && r.error === SEQUENCE_DEADLINE_PASSED)) {
      renderTimeouts.inc();
      throw renderTimeoutError(this.timeoutMs);
    }
    return results;
  }

  /** Runs one task on a worker thread, answering its lookups here over a port of its own. */
  private async runTask(pool: Piscina, task: (port: MessagePort) => RenderTask | RenderManyTask, lookup: PageLookup): Promise<unknown> {
    const end = renderSeconds.startTimer({ where: 'worker' });
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (m: LookupCall) => {
      const answer = m.method === 'files' ? lookup.files(m.arg as string[]) : lookup[m.method](m.arg as Parameters<PageLookup['exist']>[0]);
      answer.then(
        (map) => port1.postMessage({ id: m.id, entries: [...map.entries()] } satisfies LookupReply),
        (e: unknown) => port1.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies LookupReply),
      );
    });
    // Queueing counts: the deadline is the caller's whole wait. Aborting a running task makes
    // piscina terminate its thread (the only way to stop a synchronous render).
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      return await pool.run(task(port2), { transferList: [port2], signal });
    } catch (e) {
      if (signal.aborted) {
        renderTimeouts.inc();
        throw renderTimeoutError(this.timeoutMs);
      }
      throw e;
    } finally {
      end();
      port1.close();
    }
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
