/*
 * wiki.content.revisions.v1.RevisionService ListContributions / CountContributions: MediaWiki's
 * ContributionsLookup, which runs ContribsPager (an IndexPager over rev_timestamp, rev_id as the
 * tie-breaker) for one segment. As IndexPager, a segment reads limit + 1 rows to know whether
 * more follow, and when it starts at an offset, one row the other way to know whether it is the
 * newest; offsets carry the timestamp only.
 */
import type { Contribution, CountContributionsRequest, CountContributionsResponse, ListContributionsRequest, ListContributionsResponse } from '@quire/proto/wiki/content/revisions/v1/revisions';
import type { RenderService } from '../domain/render.js';
import { contributionRows, countContributions, type ContributionFilter, type ContributionRow } from '../store/contributions.js';
import { tagMessages } from './tag-messages.js';
import type { ContentContext } from './context.js';
import { isoTimestamp } from './records.js';

/** TS_MW: "20261124214047". */
const mwTimestamp = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

/** An offset as the store compares it: a TS_MW time as a time, anything else as text (as MediaWiki's database does). */
function offsetOf(ts: string): Date | string {
  const m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(ts);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]))) : ts;
}

export function contributionHandlers(ctx: ContentContext, render: RenderService) {
  const { db } = ctx;

  return {
    async listContributions(req: ListContributionsRequest): Promise<ListContributionsResponse> {
      const filter: ContributionFilter = { user: req.user, tag: req.tag, hideBits: req.hideBits };
      const limit = Math.max(1, req.limit);
      const offset = req.offset ? offsetOf(req.offset) : undefined;
      // The pager's default order is newest first; an "after" segment reads the other way.
      const descending = !req.backwards;
      // IndexPager::doQuery: with an offset, the first segment is the one with nothing beyond it.
      const isFirst = offset ? (await contributionRows(db, filter, { offset, descending: !descending, inclusive: true, limit: 1 })).length === 0 : true;
      const rows = await contributionRows(db, filter, { offset, descending, inclusive: false, limit: limit + 1 });
      const shown = rows.slice(0, limit);
      // extractResultInfo: first and last index of the rows shown, in query order.
      const firstIndex = shown[0] ? mwTimestamp(shown[0].timestamp) : '';
      const lastIndex = shown.length ? mwTimestamp(shown[shown.length - 1]!.timestamp) : '';
      const more = rows.length > limit;
      const flags = req.backwards ? { newest: !more, oldest: isFirst, firstShown: lastIndex, lastShown: firstIndex } : { newest: isFirst, oldest: !more, firstShown: firstIndex, lastShown: lastIndex };
      const ordered: ContributionRow[] = req.backwards ? [...shown].reverse() : shown;

      const tagNames = [...new Set(ordered.flatMap((r) => r.tags))];
      const messages = await tagMessages(db, render, tagNames);
      const contributions: Contribution[] = ordered.map((r) => ({
        revId: r.revId,
        pageId: r.pageId,
        ns: r.ns,
        dbkey: r.dbkey,
        timestamp: isoTimestamp(r.timestamp),
        comment: r.comment,
        deleted: r.deleted,
        size: r.size,
        // ContributionsLookup::getContributionDeltas: a first revision's delta is its size.
        ...(r.parentId === 0 ? { delta: r.size } : r.parentSize !== null ? { delta: r.size - r.parentSize } : {}),
        // ContributionsLookup::getContributionTags leaves out tags whose message is disabled.
        tags: r.tags.flatMap((name) => {
          const msg = messages.get(name);
          return msg?.disabled ? [] : [{ name, description: msg?.html ?? '' }];
        }),
      }));
      return { contributions, ...flags };
    },

    async countContributions(req: CountContributionsRequest): Promise<CountContributionsResponse> {
      return { count: await countContributions(db, { user: req.user, tag: req.tag, hideBits: req.hideBits }) };
    },
  };
}
