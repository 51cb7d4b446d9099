import type { KvStore } from '@quire/kit';

export interface SessionData {
  userId: number;
  userName: string;
  /** Extra groups besides the implicit * and user. */
  groups: string[];
  /** Per-session secret every token of the session is derived from. */
  secret: string;
  createdAt: number;
}

/** Sessions live in the token store (Redis or in-process) with a TTL, as MediaWiki's SessionManager. */
export class SessionStore {
  constructor(private readonly kv: KvStore, private readonly ttlSeconds: number) {}

  async get(id: string): Promise<SessionData | null> {
    if (!/^[A-Za-z0-9_-]{16,128}$/.test(id)) return null;
    const raw = await this.kv.get(`session:${id}`);
    if (!raw) return null;
    return JSON.parse(raw) as SessionData;
  }

  async put(id: string, data: SessionData): Promise<void> {
    await this.kv.set(`session:${id}`, JSON.stringify(data), this.ttlSeconds);
  }

  async delete(id: string): Promise<void> {
    await this.kv.del(`session:${id}`);
  }
}
