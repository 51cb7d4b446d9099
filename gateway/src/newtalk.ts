/*
 * The new-messages notification (`hasmsg`) is cleared when its owner reads their talk page —
 * through REST (GET /v1/page/User_talk:<self>) or action=query on that title — as MediaWiki
 * clears it when the page is viewed.
 */
import type { Caller, GatewayDeps } from './context.js';

const NS_USER_TALK = 3;

export async function markOwnTalkPageSeen(deps: GatewayDeps, caller: Caller, pages: readonly { ns: number; title: string }[]): Promise<void> {
  const { user } = caller;
  const own = pages.some((p) => p.ns === NS_USER_TALK && p.title.slice(p.title.indexOf(':') + 1) === user.name);
  if (!own) return;
  try {
    await deps.clients.content.markTalkPageSeen(user.name, user.anonymous ? 0 : user.id);
  } catch (err) {
    // The read itself succeeded; a notification left set is shown again, nothing is lost.
    deps.log.warn({ err, user: user.name }, 'could not clear the new-talk notification');
  }
}
