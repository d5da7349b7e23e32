/**
 * `wakitjs/cluster` (advanced): for fleet-aware plugins: the fleet view a node has of the others,
 * fleet events and their stream ids.
 *
 * Stability: advanced. While wakit is 0.x, names here may change in a minor release (listed in
 * the changelog); from 1.0 semver applies (docs/api-surface.md).
 */
export type {
  ClientOwner,
  ClusterView,
  FleetEvent,
  FleetEventStream,
  FleetNode,
} from '../cluster/cluster-view.js';
export { compareStreamIds, isStreamId } from '../cluster/stream-entries.js';
