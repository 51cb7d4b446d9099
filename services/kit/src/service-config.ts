// The variables every service reads, apart from service.ts so that `npm start` can read them
// before it loads the services' modules (scripts/stack-early.ts).
import { v } from './config.js';

export type ServiceName = 'auth' | 'content' | 'search';

export const DEFAULT_GRPC_PORTS: Record<ServiceName, number> = { auth: 50051, content: 50052, search: 50053 };

/** The variables every service reads; per-service variants (CONTENT_DATABASE_URL, …) win over shared ones. */
export function serviceConfigSpec(name: ServiceName) {
  const P = name.toUpperCase();
  return {
    dataDir: v.string(['DATA_DIR'], { default: './data', doc: 'embedded data folder' }),
    databaseUrl: v.url([`${P}_DATABASE_URL`, 'DATABASE_URL'], { protocols: ['postgres', 'postgresql'] }),
    redisUrl: v.url([`${P}_REDIS_URL`, 'REDIS_URL'], { protocols: ['redis', 'rediss'] }),
    grpcHost: v.string([`${P}_GRPC_HOST`], { default: '127.0.0.1' }),
    grpcPort: v.port([`${P}_GRPC_PORT`], { default: DEFAULT_GRPC_PORTS[name] }),
    secretKey: v.string(['SECRET_KEY']),
    kvPrefix: v.string(['KV_PREFIX'], { default: 'quire:' }),
    dbPoolSize: v.int([`${P}_DB_POOL_SIZE`, 'DB_POOL_SIZE'], { default: 10, min: 1, max: 200 }),
  };
}
