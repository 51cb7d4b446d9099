/*
 * A FileStore in the content database (migration 011, table file_object): the shared store for
 * deployments with several content replicas and no object storage (compose, the Kubernetes
 * manifests). Content-addressed like the others, so a put of existing bytes changes nothing and
 * two replicas storing the same upload at once both succeed (ON CONFLICT DO NOTHING).
 */
import type { Db } from '@quire/kit';
import type { FileStore } from '../files/store.js';

const KEY = /^[0-9a-f]{40}$/;
function checkKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`);
}

export class DbFileStore implements FileStore {
  constructor(private readonly db: Db) {}

  get description(): string {
    return `database table ${this.db.schema}.file_object`;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    checkKey(key);
    // Its own statement, outside the upload's transaction: the FileStore contract is "bytes before the row".
    await this.db.query(`INSERT INTO ${this.db.schema}.file_object (fo_key, fo_content_type, fo_size, fo_data) VALUES ($1, $2, $3, $4) ON CONFLICT (fo_key) DO NOTHING`, [
      key,
      contentType ?? '',
      data.length,
      data,
    ]);
  }

  async get(key: string): Promise<Buffer | undefined> {
    checkKey(key);
    const r = await this.db.query<{ fo_data: Buffer }>(`SELECT fo_data FROM ${this.db.schema}.file_object WHERE fo_key = $1`, [key]);
    const data = r.rows[0]?.fo_data;
    return data === undefined ? undefined : Buffer.from(data);
  }

  async has(key: string): Promise<boolean> {
    checkKey(key);
    const r = await this.db.query(`SELECT 1 FROM ${this.db.schema}.file_object WHERE fo_key = $1`, [key]);
    return r.rows.length > 0;
  }
}
