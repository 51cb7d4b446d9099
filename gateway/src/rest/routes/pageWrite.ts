/*
 * What the page write routes share (MediaWiki's EditHandler, an action=edit wrapper): the body
 * fields, the edit itself through the content service, the page in its full form as the
 * response (201 when created), and how action=edit's errors become REST statuses.
 */
import { saveEdit } from '../../action/modules/writes.js';
import { urlEncodeTitle } from '../paths.js';
import { actionModuleStatusError } from '../responses.js';
import { RestError, type ActionModuleError, type RestContext, type RestResponse, type BodyFieldDecl } from '../types.js';

/**
 * EditHandler::throwHttpExceptionForActionModuleError: the action=edit codes with a status of
 * their own. Every other code — permissiondenied, protectednamespace, blocked… — is a 400 naming
 * it as actionModuleErrorCode (the pipeline's default for routes that run an action module).
 */
const EDIT_ERROR_STATUSES: Readonly<Record<string, number>> = {
  protectedpage: 403,
  badtoken: 403,
  missingtitle: 404,
  articleexists: 409,
  editconflict: 409,
  ratelimited: 429,
};

export function mapEditError(err: ActionModuleError): RestError | undefined {
  const status = EDIT_ERROR_STATUSES[err.code];
  return status === undefined ? undefined : actionModuleStatusError(err, status);
}

const CONTENT_MODELS = ['wikitext', 'javascript', 'json', 'css', 'text'];

/** Body fields both write routes take. */
export const editBodyFields = {
  source: { type: 'string', required: true, description: 'The full wikitext of the new revision' },
  comment: { type: 'string', required: true, description: 'The edit summary' },
  content_model: { type: 'string', description: "Content model; default: the page's, or wikitext for a new page" },
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

/** Runs the edit and answers with the page's full form (errors are mapped by the routes' mapError). */
export async function writePage(ctx: Pick<RestContext, 'caller' | 'deps' | 'routeUrl'>, write: PageWrite, opts: { location?: boolean }): Promise<RestResponse> {
  const model = write.contentModel || undefined;
  if (model !== undefined && !CONTENT_MODELS.includes(model)) throw new RestError(400, `Bad content model: ${model}`);
  // The same edit call as action=edit (EditHandler runs ApiEditPage).
  const res = await saveEdit(ctx.deps, await ctx.caller(), {
    title: write.title,
    text: write.source,
    summary: write.comment,
    contentModel: model ?? '',
    ...(write.latestId !== undefined && write.latestId > 0 ? { baseRevId: write.latestId, noCreate: true } : { createOnly: true }),
  });
  const json = {
    id: res.pageId,
    title: res.title,
    key: res.dbkey,
    latest: { id: res.newRevId, timestamp: res.newTimestamp },
    license: { url: '', title: '' },
    content_model: res.contentModel,
    source: res.content,
  };
  // CreationHandler: the new page's URL, with the title in urlEncodeTitle's form (not rawurlencode's).
  const headers: Record<string, string> = opts.location ? { Location: ctx.routeUrl(`/v1/page/${urlEncodeTitle(res.title)}`) } : {};
  return { status: res.created ? 201 : 200, json, headers };
}
