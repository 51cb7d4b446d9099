import type { PageRecord, Revision } from '@quire/proto/wiki/content/v1/common';
import type { TitleCodec } from '../title/codec.js';
import type { PageRow } from '../store/pages.js';
import type { RevisionRow } from '../store/revisions.js';

export { isoTimestamp } from '../content/timestamp.js';
export { parsePageTitleOrThrow } from '../title/page-title.js';
import { isoTimestamp } from '../content/timestamp.js';

/** $wgLanguageCode: the language of pages whose page_lang is unset. */
const CONTENT_LANGUAGE = 'en';

/** A page that does not exist; virtual (Special:, Media:) pages are flagged special. */
export function missingPageRecord(codec: TitleCodec, ns: number, dbkey: string): PageRecord {
  return {
    id: 0,
    ns,
    title: codec.prefixedText(ns, dbkey),
    dbkey: codec.prefixedDbKey(ns, dbkey),
    missing: true,
    special: ns < 0,
    latestRevId: 0,
    latestTimestamp: '',
    touched: '',
    length: 0,
    redirect: false,
    isNew: false,
    contentModel: '',
    pageLanguage: '',
    redirectTarget: '',
  };
}

/** @param redirectTarget prefixed text of the target when the page is a redirect */
export function pageRecord(codec: TitleCodec, row: PageRow, redirectTarget = ''): PageRecord {
  return {
    id: row.id,
    ns: row.ns,
    title: codec.prefixedText(row.ns, row.dbkey),
    dbkey: codec.prefixedDbKey(row.ns, row.dbkey),
    missing: false,
    special: false,
    latestRevId: row.latestRevId,
    latestTimestamp: isoTimestamp(row.latestTimestamp),
    touched: isoTimestamp(row.touched),
    length: row.length,
    redirect: row.isRedirect,
    isNew: row.isNew,
    contentModel: row.contentModel,
    pageLanguage: row.lang ?? CONTENT_LANGUAGE,
    redirectTarget,
  };
}

export function revisionMessage(r: RevisionRow): Revision {
  return {
    id: r.id,
    pageId: r.pageId,
    parentId: r.parentId,
    timestamp: isoTimestamp(r.timestamp),
    userId: r.userId,
    userText: r.userText,
    comment: r.comment,
    minor: r.minor,
    sha1: r.sha1,
    size: r.size,
    contentModel: r.contentModel,
    contentFormat: r.contentFormat,
    ...(r.content !== undefined ? { content: r.content } : {}),
    deleted: r.deleted,
    tags: r.tags,
    parentSize: r.parentSize ?? -1,
  };
}
