import crypto from 'node:crypto';
import type { KvStore } from '@quire/kit';

/** A login waiting for its second factor (clientlogin UI → continue). */
export interface PendingLogin {
  userId: number;
  remember: boolean;
  /** Unix ms; the pending step expires with PENDING_LOGIN_MS. */
  at: number;
}

export interface SessionData {
  /** 0 for an anonymous session (it still has a secret: login and createaccount tokens). */
  userId: number;
  userName: string;
  /** Per-session secret every token of the session is derived from. */
  secret: string;
  createdAt: number;
  /**
   * A bot-password session: its grants limit the rights; `stamp` ties it to the password it used.
   * The API's only: ResolveSession says so (SESSION_KIND_BOT_PASSWORD) and web pages see an anonymous visitor.
   */
  botPassword?: { appId: string; grants: string[]; stamp: string };
  /** An OAuth request's session (never a cookie): its grants limit the rights, as a bot password's; the API's only too. */
  oauthGrants?: string[];
  pendingLogin?: PendingLogin;
  /** "Remember me": the session lives (and its cookie persists) for the persistent TTL. */
  persistent?: boolean;
}

export const PENDING_LOGIN_MS = 10 * 60 * 1000;

/** Session ids: 32 random bytes, base64url (43 characters). */
export function newSessionId(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function newSecret(): string {
  return crypto.randomBytes(32).toString('hex');
}

/** Sessions live in the token store (Redis or in-process) with a TTL, as MediaWiki's SessionManager. */
export class SessionStore {
  constructor(
    private readonly kv: KvStore,
    private readonly ttlSeconds: number,
    readonly persistentTtlSeconds: number,
  ) {}

  async get(id: string): Promise<SessionData | null> {
    if (!/^[A-Za-z0-9_-]{16,128}$/.test(id)) return null;
    const raw = await this.kv.get(`session:${id}`);
    if (!raw) return null;
    return JSON.parse(raw) as SessionData;
  }

  async put(id: string, data: SessionData): Promise<void> {
    await this.kv.set(`session:${id}`, JSON.stringify(data), data.persistent ? this.persistentTtlSeconds : this.ttlSeconds);
  }

  /** A new session with a fresh id and secret. */
  async create(data: Omit<SessionData, 'secret' | 'createdAt'>): Promise<{ id: string; data: SessionData }> {
    const id = newSessionId();
    const full: SessionData = { ...data, secret: newSecret(), createdAt: Date.now() };
    await this.put(id, full);
    return { id, data: full };
  }

  async delete(id: string): Promise<void> {
    await this.kv.del(`session:${id}`);
  }
}
