/*
 * GET /v1/revision/{id} (MediaWiki's RevisionSourceHandler, format "source") and what the
 * revision routes and the history share: the revision metadata with the author and comment as
 * the caller may see them (RevisionRecord::FOR_THIS_USER), and the revision validators.
 */
import { createHash } from 'node:crypto';
import type { PageRecord, Revision } from '../../clients/types.js';
import type { GatewayDeps } from '../../context.js';
import { defineRoute, RestError, type RestContext, type Validators } from '../types.js';
import { isoTimestamp, LICENSE, pageCacheControl } from './pageContent.js';
import { DELETED_COMMENT, DELETED_TEXT, DELETED_USER, publicCanSee, userCanSee } from '../../revdel.js';

export const revisionIdParam = {
  id: { source: 'path', type: 'integer', required: true, description: 'Revision id' },
} as const;

/** The caller's rights, asked for only when a revision hides something (most reads never need them). */
export async function rightsIfHidden(ctx: RestContext, revisions: readonly Revision[]): Promise<readonly string[]> {
  return revisions.some((r) => r.deleted !== 0) ? (await ctx.caller()).user.rights : [];
}

/** `user` and `comment` as the caller may see them: null when hidden from them. */
export function authorAndComment(rev: Revision, rights: readonly string[]) {
  return {
    user: userCanSee(rev.deleted, DELETED_USER, rights) ? { id: rev.userId === 0 ? null : rev.userId, name: rev.userText } : null,
    comment: userCanSee(rev.deleted, DELETED_COMMENT, rights) ? rev.comment : null,
  };
}

/** The size difference to the parent revision, null when the parent's size is unknown. */
export function delta(rev: Revision): number | null {
  return rev.parentSize < 0 ? null : rev.size - rev.parentSize;
}

export interface LoadedRevision {
  revision: Revision;
  page: PageRecord;
}

/** The revision and its page, or MediaWiki's 404 (rest-nonexistent-revision). */
export async function loadRevision(deps: GatewayDeps, id: number, withContent: boolean): Promise<LoadedRevision> {
  const missing = () => new RestError(404, `The specified revision (${id}) does not exist`);
  if (id < 1) throw missing();
  const [{ revisions }, resolved] = await Promise.all([deps.clients.content.getRevisions({ revIds: [id], withContent }), deps.clients.content.resolvePages({ revIds: [id] })]);
  const revision = revisions[0];
  const page = resolved.pages.find((p) => p.id === revision?.pageId);
  if (!revision || !page) throw missing();
  return { revision, page };
}

/** RevisionContentHelper::constructMetadata. */
export async function revisionMetadata(ctx: RestContext, { revision, page }: LoadedRevision) {
  const rights = await rightsIfHidden(ctx, [revision]);
  return {
    id: revision.id,
    size: revision.size,
    minor: revision.minor,
    timestamp: isoTimestamp(revision.timestamp),
    content_model: revision.contentModel,
    page: { id: page.id, key: page.dbkey, title: page.title },
    license: LICENSE,
    ...authorAndComment(revision, rights),
    delta: delta(revision),
  };
}

/** PageContentHelper::getETag/getLastModified for a revision: its id and whether it is public. */
export function revisionValidators({ revision }: LoadedRevision): Validators {
  const accessible = publicCanSee(revision.deleted, DELETED_TEXT);
  return {
    etag: `"${createHash('sha1')
      .update(`${revision.id}${accessible ? 'a1' : 'a0'}`)
      .digest('hex')}"`,
    ...(accessible ? { lastModified: new Date(revision.timestamp) } : {}),
  };
}

/**
 * RevisionContentHelper::checkAccess: every revision route (source, bare, html, with_html) refuses
 * a revision whose text is hidden, whoever asks — their answers are cacheable (FOR_PUBLIC).
 */
export function assertTextVisible({ revision }: LoadedRevision): void {
  if (!publicCanSee(revision.deleted, DELETED_TEXT)) throw new RestError(403, `User doesn't have access to the requested revision (${revision.id}).`);
}

export const revisionSourceRoute = defineRoute({
  method: 'GET',
  path: '/v1/revision/{id}',
  summary: 'Get a revision: its metadata and wikitext source',
  params: revisionIdParam,
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const loaded = await loadRevision(ctx.deps, ctx.params.id, true);
    assertTextVisible(loaded);
    const source = loaded.revision.content;
    if (source === undefined) throw new Error(`content service returned no content for revision ${loaded.revision.id}`);
    return { json: { ...(await revisionMetadata(ctx, loaded)), source }, validators: revisionValidators(loaded) };
  },
});
