import pg from 'pg';
import type { Logger } from '@quire/kit';
import type { GetReplicationLagResponse } from '@quire/proto/wiki/content/site/v1/site';

/**
 * Replica lag for maxlag, read from the configured read replicas of the content database
 * (CONTENT_REPLICA_DATABASE_URLS). Without replicas the lag is -1, which never trips maxlag,
 * as in MediaWiki. A server that is not replaying WAL (a primary) reports 0.
 */
export class ReplicaLagProbe {
  private readonly replicas: { host: string; pool: pg.Pool }[];

  constructor(urls: string[], log: Logger) {
    this.replicas = urls.map((url) => {
      const pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 30_000 });
      pool.on('error', (err) => log.warn({ err }, 'replica pool error'));
      return { host: new URL(url).host, pool };
    });
  }

  async lag(): Promise<GetReplicationLagResponse> {
    if (this.replicas.length === 0) return { lagSeconds: -1, host: '' };
    const lags = await Promise.all(
      this.replicas.map(async ({ host, pool }) => {
        const r = await pool.query<{ lag: number }>('SELECT COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)::float8 AS lag');
        return { host, lag: r.rows[0]?.lag ?? 0 };
      }),
    );
    const worst = lags.reduce((a, b) => (b.lag > a.lag ? b : a));
    return { lagSeconds: worst.lag, host: worst.host };
  }

  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.pool.end()));
  }
}
