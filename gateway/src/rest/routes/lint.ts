/*
 * Lint (Parsoid's ParsoidHandler wt2lint, as the Linter-enabled MediaWiki serves it):
 * GET /v1/page/{title}/lint and GET /v1/revision/{id}/lint here; the transforms to lint
 * (POST …/transform/wikitext/to/lint…) are in transform.ts. The answer is Parsoid's JSON list
 * of lints: [{type, dsr: [start, end, openWidth, closeWidth], params}], offsets in UTF-8 bytes.
 */
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { LintWikitextRequest } from '../../clients/types.js';
import type { GatewayDeps } from '../../context.js';
import { restMessages } from '../responses.js';
import { defineRoute, RestError, type RestResponse } from '../types.js';
import { titleParam } from './pageContent.js';
import { assertTextVisible, loadRevision, revisionIdParam } from './revision.js';

/** Parsoid's transform routes are never cached (ParsoidHandler sets it on every response). */
export const transformCacheControl = () => 'private,no-cache,s-maxage=0';

/** The lints of posted wikitext, a revision or a page; `notFound` answers a missing revision or page (and a bad title). */
export async function lints(deps: GatewayDeps, req: Partial<LintWikitextRequest>, notFound: () => RestError): Promise<RestResponse> {
  try {
    const r = await deps.clients.content.lintWikitext(req);
    return { json: JSON.parse(r.lintsJson) as unknown };
  } catch (e) {
    if (e instanceof ServiceError && (e.grpcCode === GrpcStatus.NOT_FOUND || e.mwCode === 'invalidtitle')) throw notFound();
    if (e instanceof ServiceError && e.mwCode === 'badformat') throw new RestError(400, e.message, {}, { localized: false });
    throw e;
  }
}

const missingRevision = (id: number) => () => new RestError(404, `The specified revision (${id}) does not exist`);

export const pageLintRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/lint',
  summary: 'Get the lint errors of the latest revision of a page',
  params: titleParam,
  writes: false,
  cacheControl: transformCacheControl,
  execute: (ctx) => lints(ctx.deps, { title: ctx.params.title }, () => restMessages.nonexistentTitle(ctx.params.title)),
});

export const revisionLintRoute = defineRoute({
  method: 'GET',
  path: '/v1/revision/{id}/lint',
  summary: 'Get the lint errors of a revision',
  params: revisionIdParam,
  writes: false,
  cacheControl: transformCacheControl,
  async execute(ctx) {
    // The lints quote the text: a revision whose text is hidden is refused as its source is.
    assertTextVisible(await loadRevision(ctx.deps, ctx.params.id, false));
    return lints(ctx.deps, { revId: ctx.params.id }, missingRevision(ctx.params.id));
  },
});

/** The three paths of a transform: bare, with a title, with a title and a revision. */
export const transformPathParams = {
  bare: {},
  title: titleParam,
  revision: { ...titleParam, revision: { source: 'path', type: 'integer', required: true, description: 'Revision id' } },
} as const;
