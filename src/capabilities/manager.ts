/**
 * Area managers: `client.calls`, `client.chats`, … one object per area whose methods are built from
 * the area's capability declarations. Each method takes the declaration's positional arguments,
 * validates them with its input schema, needs the client READY and calls the engine.
 */
import type { z } from 'zod';
import { issueError, zodIssues } from '../errors/index.js';
import type { ClientCore } from '../client/client-core.js';
import { readyEngine } from '../client/ready-engine.js';
import type { AnyCapability, Capability } from './define.js';

/** A declaration's SDK method: its `args` typed from its input schema, its engine result. */
export type MethodOf<C> =
  C extends Capability<infer I, infer A, infer R>
    ? (
        ...args: { [K in keyof A]: A[K] extends keyof z.input<I> ? z.input<I>[A[K]] : never }
      ) => Promise<R>
    : never;

/** The methods of one area: `{ reject: (callId) => Promise<void> }`. */
export type AreaManager<T extends Record<string, AnyCapability>> = {
  readonly [M in keyof T]: MethodOf<T[M]>;
};

/** The declaration's input from the method's arguments, validated (issues name the arguments). */
export function capabilityInput(
  capability: AnyCapability,
  values: readonly unknown[],
): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  capability.args.forEach((name, i) => {
    if (values[i] !== undefined) raw[name] = values[i];
  });
  const parsed = capability.input.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw issueError(
    'VALIDATION_FAILED',
    `Invalid arguments of ${capability.name}`,
    zodIssues(parsed.error),
  );
}

/** The manager of one area, on a client's core. */
export function buildManager<T extends Record<string, AnyCapability>>(
  core: ClientCore,
  area: T,
): AreaManager<T> {
  const manager: Record<string, (...values: unknown[]) => Promise<unknown>> = {};
  for (const [method, capability] of Object.entries(area)) {
    manager[method] = async (...values) => {
      const input = capabilityInput(capability, values);
      return capability.run(readyEngine(core), input);
    };
  }
  return Object.freeze(manager) as AreaManager<T>;
}
