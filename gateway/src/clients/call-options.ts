import type { Metadata } from '@grpc/grpc-js';

/**
 * Options of one call through a client wrapper (deadline, request metadata). In a module of its
 * own so that the wrappers in sibling files and index.ts, which builds them, do not import each
 * other.
 */
export interface CallOpts {
  deadlineMs?: number;
  metadata?: Metadata;
}
