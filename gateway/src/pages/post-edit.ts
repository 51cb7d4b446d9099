/*
 * The post-edit notice (EditPage::setPostEditCookie and Article::view): a save sets a short-lived
 * cookie named after the new revision; the next view of that revision takes it and marks the page,
 * and the skin's script shows "Your edit was saved." Without the script nothing shows, as in MediaWiki.
 */
import { readCookie } from '../caller.js';
import { clientProtocol } from '../client-ip.js';
import type { EditResponse } from '../clients/types.js';
import type { PageRequest } from './request.js';

const PREFIX = 'PostEditRevision';
/** EditPage::POST_EDIT_COOKIE_DURATION. */
const SECONDS = 20;

const MESSAGES: Record<string, string> = {
  saved: 'Your edit was saved.',
  created: 'The page has been created.',
  restored: 'The page has been restored.',
};

function cookieName(p: PageRequest, revId: number): string {
  return `${p.deps.config.wikiId}${PREFIX}${revId}`;
}

function cookieOptions(p: PageRequest) {
  const secure = p.deps.config.server.startsWith('https:') || clientProtocol(p.req, p.deps.config.isTrustedProxy) === 'https';
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };
}

/** After a save: what the next view of the saved revision announces. */
export function setPostEditCookie(p: PageRequest, res: EditResponse): void {
  if (!res.newRevId) return;
  p.res.cookie(cookieName(p, res.newRevId), res.created ? 'created' : 'saved', { ...cookieOptions(p), maxAge: SECONDS * 1000 });
}

/** On a view of revision `revId`: the notice its save left (once), or undefined. */
export function takePostEditNotice(p: PageRequest, revId: number): string | undefined {
  const name = cookieName(p, revId);
  const value = readCookie(p.req, name);
  if (!value) return undefined;
  p.res.clearCookie(name, cookieOptions(p));
  return MESSAGES[value] ?? MESSAGES.saved;
}
