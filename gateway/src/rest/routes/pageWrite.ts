/*
 * What the page write routes share (MediaWiki's EditHandler, an action=edit wrapper): the body
 * fields, the edit itself through the content service, and the page in its full form as the
 * response (201 when created).
 */
import { ServiceError, GrpcStatus } from '@quire/kit';
import type { EditRequest } from '@quire/proto/wiki/content/v1/content';
import type { Caller } from '../../context.js';
import { countEdit, editActor, editBlock } from '../../action/modules/edit.js';
import { RestError, type RestContext, type RestResponse, type BodyFieldDecl } from '../types.js';

const CONTENT_MODELS = ['wikitext', 'javascript', 'json', 'css', 'text'];

/** Body fields both write routes take. */
export const editBodyFields = {
  source: { type: 'string', required: true, description: 'The full wikitext of the new revision' },
  comment: { type: 'string', required: true, description: 'The edit summary' },
  content_model: { type: 'string', description: 'Content model; default: the page\'s, or wikitext for a new page' },
  token: { type: 'string', description: 'CSRF token; required with cookie authentication' },
} as const satisfies Record<string, BodyFieldDecl>;

export interface PageWrite {
  title: string;
  source: string;
  comment: string;
  contentModel: string | undefined;
  /** Base revision: an update; absent: a creation (createonly). */
  latestId: number | undefined;
}

/** Runs the edit and answers with the page's full form; `onExists` words the 409 of a creation. */
export async function writePage(
  ctx: Pick<RestContext, 'caller' | 'deps' | 'routeUrl'>,
  write: PageWrite,
  opts: { onExists?: (title: string) => RestError; location?: boolean },
): Promise<RestResponse> {
  const model = write.contentModel || undefined;
  if (model !== undefined && !CONTENT_MODELS.includes(model)) throw new RestError(400, `Bad content model: ${model}`);
  const caller: Caller = await ctx.caller();
  if (editBlock(caller)) throw new RestError(403, 'You have been blocked from editing.');
  const req: Partial<EditRequest> = {
    title: write.title,
    text: write.source,
    summary: write.comment,
    contentModel: model ?? '',
    actor: editActor(caller),
    maxArticleSizeKb: ctx.deps.config.maxArticleSizeKb,
    ...(write.latestId !== undefined && write.latestId > 0 ? { baseRevId: write.latestId, noCreate: true } : { createOnly: true }),
  };
  let res;
  try {
    res = await ctx.deps.clients.content.edit(req);
  } catch (e) {
    if (e instanceof ServiceError && e.grpcCode === GrpcStatus.ALREADY_EXISTS && opts.onExists) throw opts.onExists(write.title);
    throw e;
  }
  await countEdit(ctx.deps, caller, res);
  const json = {
    id: res.pageId,
    title: res.title,
    key: res.dbkey,
    latest: { id: res.newRevId, timestamp: res.newTimestamp },
    license: { url: '', title: '' },
    content_model: res.contentModel,
    source: res.content,
  };
  const headers: Record<string, string> = opts.location ? { Location: ctx.routeUrl('/v1/page/{title}', { title: res.dbkey }) } : {};
  return { status: res.created ? 201 : 200, json, headers };
}
