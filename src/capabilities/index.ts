export { defineCapability } from './define.js';
export type {
  AnyCapability,
  Capability,
  CapabilityHttp,
  CapabilityHttpMethod,
  CapabilityRequest,
} from './define.js';
export type { AreaManager, MethodOf } from './manager.js';
export { CAPABILITY_AREAS, CAPABILITY_LIST, buildManagers } from './registry.js';
export type { CapabilityArea, CapabilityAreas, Managers } from './registry.js';
