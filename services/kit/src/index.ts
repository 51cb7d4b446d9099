export * from './config.js';
export * from './errors.js';
export * from './log.js';
export * from './db.js';
export * from './kv.js';
export * from './grpc.js';
export * from './datadir.js';
export * from './service.js';
