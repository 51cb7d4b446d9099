/*
 * A registered user's signature preferences ("nickname", "fancysig"), for the pre-save transform
 * of a text that signs (~~~): asked of the auth service only when a text holds a signature.
 */
import type { Caller, GatewayDeps } from './context.js';

export interface SignaturePreference {
  nickname: string;
  fancy: boolean;
}

/** A registered caller's own option overrides (users.options), {} for an anonymous one or unreadable JSON. */
export async function ownOptions(deps: GatewayDeps, caller: Caller): Promise<Record<string, unknown>> {
  if (caller.user.anonymous) return {};
  const details = (await deps.clients.auth.getUsers({ ids: [caller.user.id] })).users[0];
  try {
    return JSON.parse(details?.optionsJson || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

export async function signaturePreference(deps: GatewayDeps, caller: Caller, texts: readonly (string | undefined)[]): Promise<SignaturePreference | undefined> {
  if (caller.user.anonymous || !texts.some((t) => t?.includes('~~~'))) return undefined;
  const options = await ownOptions(deps, caller);
  const fancy = options.fancysig;
  return { nickname: typeof options.nickname === 'string' ? options.nickname : '', fancy: fancy === true || fancy === 1 || fancy === '1' };
}
