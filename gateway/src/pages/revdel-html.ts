/*
 * Revision deletion on the web pages (Linker::revUserTools, Linker::revComment,
 * ChangesList::revDateLink, Article::showDeletedRevisionHeader): a hidden author, summary or text
 * is struck out ("history-deleted", plus "mw-history-suppressed" when suppressed) and, for a
 * reader who may not see it, replaced by "(username removed)" / "(edit summary removed)" or shown
 * without its link. Who may see what is gateway/src/revdel.ts's question; this file only draws.
 */
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_TEXT, DELETED_USER, userCanSee } from '../revdel.js';
import { html, messageBox, type SafeHtml } from './html.js';
import { indexPath } from './paths.js';
import { summaryHtml, userLinks } from './wiki.js';

/** What a line of a list knows of one revision (or recent change, or log entry). */
export interface HiddenFields {
  deleted: number;
  user: string;
  anon: boolean;
}

/** A revision's author as the lines show it. */
export function authorOf(rev: { deleted: number; userText: string; userId: number }): HiddenFields {
  return { deleted: rev.deleted, user: rev.userText, anon: rev.userId === 0 };
}

/** Linker::getRevisionDeletedClass. */
export function deletedClass(deleted: number): string {
  return deleted & DELETED_RESTRICTED ? 'history-deleted mw-history-suppressed' : 'history-deleted';
}

/** Linker::revUserTools: the author's links, "(username removed)" when hidden from the reader, struck out when hidden at all. */
export function revUserTools(row: HiddenFields, rights: readonly string[]): SafeHtml {
  const shown = userCanSee(row.deleted, DELETED_USER, rights) ? userLinks(row.user, row.anon) : html`(username removed)`;
  return row.deleted & DELETED_USER ? html`<span class="${deletedClass(row.deleted)}">${shown}</span>` : shown;
}

/** Linker::revComment: the formatted summary, "(edit summary removed)" when hidden from the reader, struck out when hidden at all. */
export function revComment(deleted: number, formatted: string, rights: readonly string[]): SafeHtml {
  if (!(deleted & DELETED_COMMENT)) return summaryHtml(formatted);
  const shown = userCanSee(deleted, DELETED_COMMENT, rights) ? summaryHtml(formatted) : html`<span class="comment">(edit summary removed)</span>`;
  return html` <span class="${deletedClass(deleted)} comment">${shown}</span>`;
}

/** ChangesList::revDateLink: the date, a link to the revision only for a reader who may see its text. */
export function revDateLink(rev: { id: number; deleted: number }, title: string, date: string, rights: readonly string[]): SafeHtml {
  const link = userCanSee(rev.deleted, DELETED_TEXT, rights) ? html`<a href="${indexPath(title, { oldid: rev.id })}" class="mw-changeslist-date">${date}</a>` : html`${date}`;
  return rev.deleted & DELETED_TEXT ? html`<span class="${deletedClass(rev.deleted)} mw-changeslist-date">${link}</span>` : link;
}

/** Whether a diff or old-revision link may point at this revision for this reader (HistoryPager::curLink/lastLink). */
export function textLinkable(deleted: number, rights: readonly string[]): boolean {
  return userCanSee(deleted, DELETED_TEXT, rights);
}

/**
 * Article::showDeletedRevisionHeader: the box over a revision whose text is hidden — refused
 * ("…-text-permission") for a reader who may not see it; with `unhide=1` shown ("…-text-view"),
 * otherwise a link to show it ("…-text-unhide"). `show` says whether the text follows.
 */
export function deletedRevisionHeader(rev: { id: number; deleted: number }, title: string, rights: readonly string[], unhide: boolean): { show: boolean; box: SafeHtml } | undefined {
  if (!(rev.deleted & DELETED_TEXT)) return undefined;
  const suppressed = (rev.deleted & DELETED_RESTRICTED) !== 0;
  const what = suppressed ? 'suppressed' : 'deleted';
  const log = html`<a href="${indexPath(`Special:Log/${suppressed ? 'suppress' : 'delete'}`, { page: title })}">${suppressed ? 'suppression' : 'deletion'} log</a>`;
  const box = (content: SafeHtml) => messageBox('error', content);
  if (!userCanSee(rev.deleted, DELETED_TEXT, rights)) {
    return { show: false, box: box(html`This page revision has been <strong>${what}</strong>.<br>Details can be found in the ${log}.`) };
  }
  if (!unhide) {
    const view = html`<a href="${indexPath(title, { oldid: rev.id, unhide: 1 })}">view this revision</a>`;
    return { show: false, box: box(html`This page revision has been <strong>${what}</strong>.<br>Details can be found in the ${log}.<br>You can still ${view} if you wish to proceed.`) };
  }
  return { show: true, box: box(html`This page revision has been <strong>${what}</strong>.<br>You can view it; details can be found in the ${log}.`) };
}

/**
 * DifferenceEngine::showDiffPage over revisions whose text is hidden (`deleted` is both sides'
 * bits): refused for a reader who may not see it (rev-deleted-no-diff), otherwise shown only with
 * `unhide=1` (rev-deleted-unhide-diff, then rev-deleted-diff-view). Undefined when nothing is hidden.
 */
export function deletedDiffBox(title: string, deleted: number, rights: readonly string[], unhide: boolean, query: Record<string, string | number>): { show: boolean; box: SafeHtml } | undefined {
  if (!(deleted & DELETED_TEXT)) return undefined;
  const suppressed = (deleted & DELETED_RESTRICTED) !== 0;
  const what = suppressed ? 'suppressed' : 'deleted';
  const log = html`<a href="${indexPath(`Special:Log/${suppressed ? 'suppress' : 'delete'}`, { page: title })}">${suppressed ? 'suppression' : 'deletion'} log</a>`;
  if (!userCanSee(deleted, DELETED_TEXT, rights)) {
    const details = suppressed ? '' : html`<br>Details can be found in the ${log}.`;
    return { show: false, box: messageBox('error', html`You cannot view this diff because one of the revisions has been <strong>${what}</strong>.${details}`) };
  }
  if (!unhide) {
    const view = html`<a href="${indexPath(title, { ...query, unhide: 1 })}">view this diff</a>`;
    return {
      show: false,
      box: messageBox('warning', html`One of the revisions of this diff has been <strong>${what}</strong>.<br>Details can be found in the ${log}.<br>You can still ${view} if you wish to proceed.`),
    };
  }
  return { show: true, box: messageBox('warning', html`One of the revisions of this diff has been <strong>${what}</strong>.<br>You can view this diff; details can be found in the ${log}.`) };
}
