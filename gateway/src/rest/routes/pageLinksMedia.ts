/* GET /v1/page/{title}/links/media (MediaWiki's MediaLinksHandler): the existing files a page uses. */
import { GrpcStatus, ServiceError } from '@quire/kit';
import { defineRoute, RestError } from '../types.js';
import { restMessages } from '../responses.js';
import { titleParam } from './pageContent.js';
import { restFileObject } from './file.js';

/** MediaLinksHandler::MAX_NUM_LINKS. */
const MAX_NUM_LINKS = 100;

export const pageLinksMediaRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/links/media',
  summary: 'Get the files used on a page',
  params: titleParam,
  writes: false,
  async execute(ctx) {
    const title = ctx.params.title;
    let r;
    try {
      r = await ctx.deps.clients.content.getMediaLinks(title, MAX_NUM_LINKS);
    } catch (e) {
      if (e instanceof ServiceError && (e.grpcCode === GrpcStatus.NOT_FOUND || e.mwCode === 'invalidtitle')) throw restMessages.nonexistentTitle(title);
      throw e;
    }
    if (r.tooMany) throw new RestError(500, `Too many media links found on title ${title} (${MAX_NUM_LINKS} allowed)`);
    const touched = new Date(r.touched);
    const ts = touched.toISOString().replace(/[-:T]/g, '').slice(0, 14);
    return {
      json: { files: r.files.map((v) => restFileObject(v, ctx.deps.config.server)) },
      validators: { etag: `"${r.latestRevId}@${ts}"`, lastModified: touched },
    };
  },
});
