/* Which FileStore the service uses, and the upload size limit, from the environment. */
import path from 'node:path';
import { ConfigError, loadConfig, v } from '@quire/kit';
import { LocalFileStore, S3FileStore, type FileStore } from './store.js';

/** The gRPC message limit (kit/grpc.ts: 64 MiB) bounds an upload; leave room for the other fields. */
const GRPC_UPLOAD_CEILING = 60 * 1024 * 1024;

export const fileConfigSpec = {
  // The gateway reads the same variable to refuse an oversized upload before sending it.
  uploadMaxBytes: v.int(['UPLOAD_MAX_BYTES'], { default: 50 * 1024 * 1024, min: 1, doc: '$wgMaxUploadSize in bytes' }),
  fileStore: v.string(['FILE_STORE'], {
    doc: '"local" (DATA_DIR/files or FILE_STORE_DIR), "db" (the content database, shared by replicas) or "s3"; default "db" on a database server, "local" embedded',
  }),
  fileStoreDir: v.string(['FILE_STORE_DIR'], { doc: 'folder of the local file store; default DATA_DIR/files' }),
  s3Endpoint: v.string(['S3_ENDPOINT'], { doc: 'S3-compatible endpoint, e.g. https://s3.eu-west-1.amazonaws.com' }),
  s3Bucket: v.string(['S3_BUCKET'], { doc: 'bucket of the file store' }),
  s3Region: v.string(['S3_REGION'], { default: 'us-east-1', doc: 'signing region' }),
  s3Prefix: v.string(['S3_PREFIX'], { default: '', doc: 'key prefix inside the bucket' }),
  s3AccessKeyId: v.string(['S3_ACCESS_KEY_ID', 'AWS_ACCESS_KEY_ID'], { doc: 'access key' }),
  s3SecretAccessKey: v.string(['S3_SECRET_ACCESS_KEY', 'AWS_SECRET_ACCESS_KEY'], { doc: 'secret key' }),
  s3SessionToken: v.string(['S3_SESSION_TOKEN', 'AWS_SESSION_TOKEN'], { doc: 'temporary credentials token' }),
};

/** The database-backed store (store/file-objects.ts), made by the caller: this folder imports no layer. */
export interface DbStoreOption {
  make: () => FileStore;
  /** On a real server several replicas may run, so the database is the default; embedded, the folder. */
  isDefault: boolean;
}

export function fileStoreFromEnv(env: NodeJS.ProcessEnv, dataDir: string, dbStore?: DbStoreOption): { store: FileStore; maxBytes: number } {
  const c = loadConfig(fileConfigSpec, env);
  if (c.uploadMaxBytes > GRPC_UPLOAD_CEILING) throw new ConfigError([`UPLOAD_MAX_BYTES may be at most ${GRPC_UPLOAD_CEILING} (the gRPC message limit)`]);
  const kind = c.fileStore ?? (dbStore?.isDefault ? 'db' : 'local');
  if (kind === 'local') return { store: new LocalFileStore(c.fileStoreDir ?? path.join(dataDir, 'files')), maxBytes: c.uploadMaxBytes };
  if (kind === 'db' && dbStore) return { store: dbStore.make(), maxBytes: c.uploadMaxBytes };
  if (kind !== 's3') throw new ConfigError([`FILE_STORE must be "local", "db" or "s3", not ${JSON.stringify(c.fileStore)}`]);
  const missing = (['s3Endpoint', 's3Bucket', 's3AccessKeyId', 's3SecretAccessKey'] as const).filter((k) => !c[k]);
  if (missing.length) throw new ConfigError([`FILE_STORE=s3 needs ${missing.map((k) => fileConfigSpec[k].names[0]).join(', ')}`]);
  const store = new S3FileStore({
    endpoint: c.s3Endpoint!,
    bucket: c.s3Bucket!,
    region: c.s3Region,
    prefix: c.s3Prefix,
    credentials: { accessKeyId: c.s3AccessKeyId!, secretAccessKey: c.s3SecretAccessKey!, sessionToken: c.s3SessionToken },
  });
  return { store, maxBytes: c.uploadMaxBytes };
}
