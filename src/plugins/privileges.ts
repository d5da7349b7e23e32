import { WakitError } from '../errors/index.js';
import type { Phase } from '../kernel/lifecycle.js';
import type { LifecycleView, Plugin, PrivilegeName, PrivilegedServices } from './types.js';

/** Every privileged service a plugin may declare, in documentation order. */
export const PRIVILEGE_NAMES: readonly PrivilegeName[] = [
  'clientAdmin',
  'sends',
  'lifecycle',
  'eventLoop',
  'fleet',
  'simulator',
  'conversations',
  'schedules',
  'chats',
  'metrics',
  'eventBus',
];

const isPrivilegeName = (name: unknown): name is PrivilegeName =>
  (PRIVILEGE_NAMES as readonly unknown[]).includes(name);

/**
 * The services a plugin declared in `privileges`, taken from `services` when the plugin reads
 * them (so a service the SDK sets up later, or replaces, is the current one). An unknown name
 * fails the plugin's load with PLUGIN_LOAD_FAILED (`details.privilege`, the names allowed).
 */
export function grantPrivileges(
  plugin: Plugin,
  services: PrivilegedServices,
  source: string,
): { granted: PrivilegeName[]; services: Partial<PrivilegedServices> } {
  const declared = plugin.privileges ?? [];
  const unknown = declared.find((name) => !isPrivilegeName(name));
  if (unknown !== undefined) {
    throw new WakitError(
      'PLUGIN_LOAD_FAILED',
      `Plugin ${plugin.name} asks for the unknown privilege ${JSON.stringify(unknown)}; known: ${PRIVILEGE_NAMES.join(', ')}`,
      {
        details: {
          plugin: plugin.name,
          source,
          privilege: String(unknown),
          known: PRIVILEGE_NAMES,
        },
      },
    );
  }
  const granted = [...new Set(declared)];
  const view: Partial<PrivilegedServices> = {};
  for (const name of granted) {
    Object.defineProperty(view, name, { enumerable: true, get: () => services[name] });
  }
  return { granted, services: Object.freeze(view) };
}

/** The `lifecycle` service: the SDK's phase, read when asked. */
export function lifecycleView(phase: () => Phase): LifecycleView {
  return {
    get phase() {
      return phase();
    },
    get stopping() {
      const now = phase();
      return now === 'stopping' || now === 'stopped';
    },
  };
}
