/*
 * GET /v1/file/{title} (MediaWiki's MediaFileHandler): a file's description URL, latest upload and
 * its original, preferred and thumbnail forms. There is no thumbnailer: every form is the
 * original, which is what MediaWiki reports for files within the display limits.
 */
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { FileVersion } from '../../clients/types.js';
import { ARTICLE_PATH } from '../../config.js';
import { wfUrlencode } from '../../action/query/encoding.js';
import { defineRoute, RestError } from '../types.js';
import { restMessages } from '../responses.js';
import { titleParam } from './pageContent.js';

const NON_DIMENSIONAL = new Set(['OFFICE', 'UNKNOWN', 'TEXT', 'ARCHIVE', 'EXECUTABLE']);

/** MediaFileTrait::getFileInfo: one form of a file. */
function form(v: FileVersion, server: string) {
  const sized = !NON_DIMENSIONAL.has(v.mediaType);
  return {
    mediatype: v.mediaType,
    size: v.size,
    width: sized && v.width > 0 ? v.width : null,
    height: sized && v.height > 0 ? v.height : null,
    duration: null,
    url: server + v.urlPath,
  };
}

/** The fields every file object of the REST API has (MediaFileTrait, without thumbnail). */
export function restFileObject(v: FileVersion, server: string) {
  return {
    title: v.title.slice(v.title.indexOf(':') + 1),
    file_description_url: server + ARTICLE_PATH.replace('$1', wfUrlencode(v.title.replace(/ /g, '_'))),
    latest: { timestamp: v.timestamp, user: { id: v.userId, name: v.user } },
    preferred: form(v, server),
    original: form(v, server),
  };
}

export const fileRoute = defineRoute({
  method: 'GET',
  path: '/v1/file/{title}',
  summary: 'Get information about a file: its latest version and the URLs of its forms',
  params: titleParam,
  writes: false,
  async execute(ctx) {
    const title = ctx.params.title;
    let info;
    try {
      info = await ctx.deps.clients.content.getFileInfo({ titles: [title], limit: 1 });
    } catch (e) {
      if (e instanceof ServiceError && e.grpcCode === GrpcStatus.INVALID_ARGUMENT) throw restMessages.nonexistentTitle(title);
      throw e;
    }
    const file = info.files[0];
    if (!file || file.name === '') throw restMessages.nonexistentTitle(title);
    const v = file.versions[0];
    if (!file.exists || !v) throw new RestError(404, `The file for title "${title}" cannot be loaded.`);
    const server = ctx.deps.config.server;
    const sha1Base36 = BigInt(`0x${v.sha1}`).toString(36).padStart(31, '0');
    return {
      json: { ...restFileObject(v, server), thumbnail: form(v, server) },
      validators: { etag: `"${sha1Base36}"`, lastModified: new Date(v.timestamp) },
    };
  },
});
