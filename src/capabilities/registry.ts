/**
 * The capability table: every declared capability, by area. The client gets one manager per area
 * (`client.calls`), REST one route per declaration with `http`.
 */
import type { ClientCore } from '../client/core/client-core.js';
import type { AnyCapability } from './define.js';
import { buildManager, type AreaManager } from './manager.js';
import { calls } from './calls.js';
import { chats } from './chats.js';
import { contacts } from './contacts.js';
import { groups } from './groups.js';
import { messages } from './messages.js';
import { presence } from './presence.js';

export const CAPABILITY_AREAS = { calls, chats, contacts, groups, messages, presence } as const;

export type CapabilityAreas = typeof CAPABILITY_AREAS;
export type CapabilityArea = keyof CapabilityAreas;
export type Managers = { readonly [A in CapabilityArea]: AreaManager<CapabilityAreas[A]> };

/** Every declaration, in table order; a name that is not `<area>.<key>` is a programming error. */
export const CAPABILITY_LIST: readonly AnyCapability[] = Object.freeze(
  Object.entries(CAPABILITY_AREAS).flatMap(([area, methods]) =>
    Object.entries(methods as Record<string, AnyCapability>).map(([method, capability]) => {
      if (capability.name !== `${area}.${method}`) {
        throw new Error(`capability ${capability.name} is declared as ${area}.${method}`);
      }
      return capability;
    }),
  ),
);

/** One manager per area, on a client's core. */
export function buildManagers(core: ClientCore): Managers {
  const managers: Record<string, unknown> = {};
  for (const [area, methods] of Object.entries(CAPABILITY_AREAS)) {
    managers[area] = buildManager(core, methods as Record<string, AnyCapability>);
  }
  return managers as Managers;
}
