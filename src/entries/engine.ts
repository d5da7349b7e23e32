/**
 * `wakitjs/engine` (advanced): for authors of a custom engine (`SdkOptions.engineFactory`): the
 * Engine port, its `ops` table by area (docs/engines.md#the-engine-port), its events, the factory
 * and its context, what an engine sends and downloads, and the capability names of engine health.
 *
 * Stability: advanced. While wakit is 0.x, names here may change in a minor release (listed in
 * the changelog); from 1.0 semver applies (docs/api-surface.md).
 */
export { CAPABILITIES, type Capability, type EngineHealth } from '../engines/health.js';
export type {
  Engine,
  EngineContext,
  EngineEvents,
  EngineFactory,
  EngineIdentity,
  EngineOps,
} from '../engines/engine.js';
export type { EngineContent, MediaFile } from '../engines/types.js';
