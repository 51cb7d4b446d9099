/*
 * GET /v1/revision/{from}/compare/{to} (MediaWiki's CompareHandler): wikidiff2's inline JSON diff
 * of two revisions of one page, with the sections of both. MediaWiki splices wikidiff2's output
 * (from the content service) into its JSON verbatim; the body is built the same way.
 */
import { ServiceError } from '@quire/kit';
import { DiffFormat, type CompareSideResult } from '../../clients/types.js';
import { defineRoute, RestError } from '../types.js';
import { textAccess } from '../../revdel.js';

/** The `from` / `to` object of the response. */
function sideJson(side: CompareSideResult | undefined) {
  return {
    id: side?.revision?.id ?? 0,
    slot_role: 'main',
    sections: (side?.sections ?? []).map((s) => ({ level: s.level, heading: s.heading, offset: s.offset })),
  };
}

const revisionParam = (description: string) => ({ source: 'path', type: 'integer', required: true, description }) as const;

export const revisionCompareRoute = defineRoute({
  method: 'GET',
  path: '/v1/revision/{from}/compare/{to}',
  summary: 'Get the difference between two revisions of a page',
  params: { from: revisionParam('The old revision id'), to: revisionParam('The new revision id') },
  writes: false,
  async execute(ctx) {
    const nonexistent = (side: string) => new RestError(404, `The revision specified by the ${side} parameter does not exist.`);
    const inaccessible = (side: string) => new RestError(403, `The revision specified by the ${side} parameter is not publicly accessible.`);
    for (const side of ['from', 'to'] as const) if (ctx.params[side] < 1) throw nonexistent(side);

    const rights = (await ctx.caller()).user.rights;
    let res;
    try {
      res = await ctx.deps.clients.content.compare({
        from: { revId: ctx.params.from },
        to: { revId: ctx.params.to },
        format: DiffFormat.DIFF_FORMAT_INLINE_JSON,
        withSections: true,
        ...textAccess(rights),
      });
    } catch (e) {
      const side = e instanceof ServiceError ? String(e.data.side ?? '') : '';
      if (e instanceof ServiceError && e.mwCode === 'nosuchrevid') throw nonexistent(side);
      if (e instanceof ServiceError && e.mwCode === 'missingcontent') throw inaccessible(side);
      throw e;
    }
    if (res.from?.revision?.pageId !== res.to?.revision?.pageId) {
      throw new RestError(400, 'The specified revisions belong to different pages; refusing to compare them.');
    }
    // As CompareHandler: the wrapper JSON with wikidiff2's output, minus its braces, as the last member.
    const wrapper = JSON.stringify({ from: sideJson(res.from), to: sideJson(res.to) });
    return { text: `${wrapper.slice(0, -1)},${res.inlineJson.slice(1, -1)}}`, contentType: 'application/json' };
  },
});
