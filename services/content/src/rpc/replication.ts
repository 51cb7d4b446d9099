import type { ReplicaLagProbe } from '../store/replication.js';

export { ReplicaLagProbe } from '../store/replication.js';

export function replicationHandlers(probe: ReplicaLagProbe) {
  return {
    getReplicationLag: () => probe.lag(),
  };
}
