import os from 'node:os';
import type { ClusterConfig } from '../config/schema.js';

/** This node's id in the fleet: `cluster.nodeId`, or `<hostname>-<pid>`. */
export function nodeIdOf(cluster: Pick<ClusterConfig, 'nodeId'>): string {
  return cluster.nodeId ?? `${os.hostname()}-${process.pid}`;
}
