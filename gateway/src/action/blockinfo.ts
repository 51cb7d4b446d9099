/*
 * A block as the action API reports it (MediaWiki 1.39's ApiBlockInfoTrait::getBlockDetails):
 * the `blockinfo` of a `blocked` error and meta=userinfo / list=users' blockinfo fields. One
 * shape for every module that reports a block.
 */
import type { BlockInfo } from '../clients/types.js';
import type { ApiUsageError, ResultObject } from './types.js';
import { apiError } from './modules/support.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Language::formatExpiry( $ts, true ) in English with the default preferences: "06:17, 21 November 2026". */
function formatExpiry(iso: string): string {
  if (iso === 'infinite' || iso === 'infinity') return 'infinite';
  return userTimeAndDate(iso);
}

/** Language::userTimeAndDate in English with the default preferences (UTC): "06:17, 21 November 2026". */
export function userTimeAndDate(iso: string): string {
  const d = new Date(iso);
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${hh}:${mm}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/**
 * ApiBlockInfoTrait::getBlockDetails, without `blockexpiryrelative` (Language::getHumanTimestamp's
 * wording is not reproduced). Timestamps are ISO 8601, an unlimited block's expiry "infinite".
 */
export function blockDetails(b: BlockInfo): ResultObject {
  return {
    blockid: b.id,
    blockedby: b.by,
    blockedbyid: b.byId,
    blockreason: b.reason,
    blockedtimestamp: b.timestamp,
    blockexpiry: b.expiry,
    blockpartial: b.partial,
    blocknocreate: b.nocreate,
    blockanononly: b.anononly,
    blockedtimestampformatted: formatExpiry(b.timestamp),
    ...(b.expiry === 'infinite' ? {} : { blockexpiryformatted: formatExpiry(b.expiry) }),
  };
}

/** ApiBase::dieBlocked: `blocked` with the block's details as `blockinfo` (a partial block's own message). */
export function blockedError(b: BlockInfo): ApiUsageError {
  return apiError('blocked', b.partial ? 'apierror-blocked-partial' : 'apierror-blocked', [], { blockinfo: blockDetails(b) });
}

/** DatabaseBlock::appliesToTitle: a sitewide block applies everywhere, a partial one to its pages (by id) and namespaces. */
export function blockAppliesTo(b: BlockInfo, page: { id: number; ns: number }): boolean {
  if (!b.partial) return true;
  return (page.id !== 0 && b.pages.some((pg) => pg.id === page.id)) || b.namespaces.includes(page.ns);
}
