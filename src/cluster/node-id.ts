import { hostname } from 'node:os';
import type { ClusterConfig } from '../config/schema.js';

/** This node's id in the fleet: `cluster.nodeId`, or `<hostname>-<pid>` (made safe for keys). */
export function nodeIdOf(cluster: Pick<ClusterConfig, 'nodeId'>): string {
  return cluster.nodeId ?? `${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9_.:-]/g, '_');
}
