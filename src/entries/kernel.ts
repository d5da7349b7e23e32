/**
 * `wakitjs/kernel` (advanced): for replacing or reusing a service of the kernel: client
 * registries, the event-loop monitor's figures, `isPlugin`, and the retry backoff the built-in
 * plugins share.
 *
 * Stability: advanced. While wakit is 0.x, names here may change in a minor release (listed in
 * the changelog); from 1.0 semver applies (docs/api-surface.md).
 */
export {
  MemoryClientRegistry,
  type ClientRecord,
  type ClientRegistry,
} from '../kernel/client-registry.js';
export { FileClientRegistry } from '../kernel/file-client-registry.js';
export type { EventLoopMonitor, EventLoopStats } from '../kernel/event-loop-monitor.js';
export { isPlugin } from '../plugins/define-plugin.js';
export {
  Backoff,
  computeBackoff,
  type BackoffJitter,
  type BackoffPolicy,
} from '../kernel/backoff.js';
