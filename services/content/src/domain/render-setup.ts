/*
 * Wires rendering into the content service: the worker pool, the render service with its parser
 * cache, the job queue, and a background job runner (MediaWiki's periodic job runs), all
 * configured from the environment.
 */
import os from 'node:os';
import { ConfigError, gauge, loadConfig, onScrape, v, type ServiceRuntime } from '@quire/kit';
import type { TitleCodec } from '../title/codec.js';
import { JobQueue } from '../store/jobs.js';
import { DEFAULT_RENDER_TIMEOUT_MS, RenderPool } from '../render/pool.js';
import { RenderService } from './render.js';
import { parseFragmentMode } from '../render/sanitizer.js';

/**
 * Sized to the machine: a core is left to the service thread (and the database and gateway
 * threads beside it), so one render thread on 2 cores, up to 4; on one core rendering stays in
 * the service thread, where a thread of its own would only add a copy of the renderer.
 */
export function defaultRenderThreads(cores = os.availableParallelism()): number {
  return Math.max(0, Math.min(4, cores - 1));
}

export const renderConfigSpec = {
  wikiName: v.string(['WIKI_NAME'], { default: 'Quire', doc: 'site name ($wgSitename)' }),
  metaNamespace: v.string(['WIKI_META_NAMESPACE'], { doc: 'the project namespace ($wgMetaNamespace); unset: the site name' }),
  server: v.string(['WIKI_SERVER'], { default: 'http://localhost', doc: '$wgServer for {{SERVER}} and {{fullurl:}}' }),
  // Read where the table is used (render.ts, also in the render threads); declared here to be documented.
  interwikiTable: v.string(['INTERWIKI_TABLE'], { doc: 'JSON file replacing the interwiki table: {"prefix": {"url": "…$1", "language": "autonym for interlanguage prefixes"}}' }),
  thumbWidth: v.int(['WIKI_THUMB_WIDTH'], {
    default: 300,
    min: 10,
    max: 4000,
    doc: "the width of a thumbnail without a size ($wgThumbLimits[$wgDefaultUserOptions['thumbsize']])",
  }),
  legacyMediaDom: v.bool(['WIKI_LEGACY_MEDIA_DOM'], {
    default: true,
    doc: 'media markup: 1 the legacy <div class="thumb">, 0 the <figure>/<span typeof="mw:File"> markup ($wgParserEnableLegacyMediaDOM)',
  }),
  fragmentMode: v.string(['WIKI_FRAGMENT_MODE'], {
    default: 'html5,legacy',
    doc: "$wgFragmentMode: how ids and link fragments are escaped, 'html5' (as written) or 'legacy' (.C3.A9); a second mode adds a heading's fallback id",
  }),
  externalLinkTarget: v.string(['WIKI_EXTERNAL_LINK_TARGET'], { doc: '$wgExternalLinkTarget: the target="" of external links (e.g. _blank); unset: none' }),
  noFollowLinks: v.bool(['WIKI_NOFOLLOW_LINKS'], { default: true, doc: '$wgNoFollowLinks: rel="nofollow" on external links' }),
  noFollowDomainExceptions: v.string(['WIKI_NOFOLLOW_DOMAIN_EXCEPTIONS'], {
    default: 'mediawiki.org',
    doc: '$wgNoFollowDomainExceptions: comma-separated domains whose links (subdomains too) get no nofollow',
  }),
  renderThreads: v.int(['CONTENT_RENDER_THREADS'], { default: defaultRenderThreads(), min: 0, max: 64, doc: 'render worker threads (at most; started on demand); 0 renders in the service thread' }),
  renderTimeoutSeconds: v.int(['CONTENT_RENDER_TIMEOUT_SECONDS'], {
    default: DEFAULT_RENDER_TIMEOUT_MS / 1000,
    min: 1,
    max: 600,
    doc: 'a render on a worker thread still running after this long is stopped (its thread terminated) and fails with timeouterror-text',
  }),
  renderSpareThreads: v.int(['CONTENT_RENDER_SPARE_THREADS'], {
    default: 1,
    min: 0,
    max: 16,
    doc: 'render threads started beyond CONTENT_RENDER_THREADS only while all of those are busy, so one slow render does not queue the others',
  }),
  jobPollMs: v.int(['CONTENT_JOB_POLL_MS'], { default: 1000, min: 0, doc: 'how often the background runner looks for jobs; 0 leaves jobs to Special:RunJobs' }),
  jobSettleMs: v.int(['CONTENT_JOB_SETTLE_MS'], {
    default: 500,
    min: 0,
    doc: 'the background runner leaves a job this long after it was queued, so that further saves of the page join it (Special:RunJobs runs every job)',
  }),
};

const jobQueueDepth = gauge('quire_job_queue_depth', 'Jobs waiting to run, by type', ['type']);
const jobQueueAge = gauge('quire_job_queue_oldest_age_seconds', 'Age of the oldest waiting job, by type', ['type']);
const renderQueue = gauge('quire_render_queue_depth', 'Renders waiting for a render worker thread');

export interface Rendering {
  service: RenderService;
  jobs: JobQueue;
  close(): Promise<void>;
}

export function startRendering(rt: ServiceRuntime, codec: TitleCodec): Rendering {
  const cfg = loadConfig(renderConfigSpec, rt.env);
  const fragmentMode = parseFragmentMode(cfg.fragmentMode);
  if (!fragmentMode) throw new ConfigError([`WIKI_FRAGMENT_MODE=${JSON.stringify(cfg.fragmentMode)} is not one or two of html5, legacy (comma-separated)`]);
  const pool = new RenderPool(
    cfg.renderThreads,
    codec,
    {
      name: cfg.wikiName,
      server: cfg.server.replace(/\/$/, ''),
      thumbLimit: cfg.thumbWidth,
      legacyMediaDom: cfg.legacyMediaDom,
      fragmentMode,
      noFollowLinks: cfg.noFollowLinks,
      noFollowDomainExceptions: cfg.noFollowDomainExceptions
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean),
      ...(cfg.externalLinkTarget ? { externalLinkTarget: cfg.externalLinkTarget } : {}),
      ...(cfg.metaNamespace ? { metaNamespace: cfg.metaNamespace } : {}),
    },
    { timeoutMs: cfg.renderTimeoutSeconds * 1000, spareThreads: cfg.renderSpareThreads },
  );
  const jobs = new JobQueue(rt.db);
  const service = new RenderService(rt.db, codec, pool, jobs, rt.log);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let closed = false;
  const tick = () => {
    running = jobs
      .run(20, 5000, cfg.jobSettleMs)
      .catch((err: unknown) => rt.log.warn({ err }, 'background job run failed'))
      .finally(() => {
        running = undefined;
        if (!closed) timer = setTimeout(tick, cfg.jobPollMs);
      });
  };
  if (cfg.jobPollMs > 0) timer = setTimeout(tick, cfg.jobPollMs);
  // Read when scraped: a drained type reads 0 (reset), not its last backlog.
  const stopMetrics = onScrape(async () => {
    renderQueue.set(pool.queueSize);
    const backlog = await jobs.backlog();
    jobQueueDepth.reset();
    jobQueueAge.reset();
    for (const b of backlog) {
      jobQueueDepth.set({ type: b.cmd }, b.n);
      jobQueueAge.set({ type: b.cmd }, b.oldestAgeSeconds);
    }
  });
  return {
    service,
    jobs,
    async close() {
      stopMetrics();
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
      await pool.close();
    },
  };
}
