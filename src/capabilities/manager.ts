/**
 * Area managers: `client.calls`, `client.chats`, … one object per area whose methods are built from
 * the area's capability declarations. Each method takes the declaration's positional arguments
 * (then its options object, if it has one), validates them with its input schema and either calls
 * the engine while READY (`direct`) or hands the prepared send to the outbound queue (`queued`).
 */
import type { z } from 'zod';
import { issueError, zodIssues } from '../errors/index.js';
import type { ClientCore } from '../client/core/client-core.js';
import { readyEngine } from '../client/core/ready-engine.js';
import type { SendResult } from '../client/types.js';
import type { AnyCapability, Capability, QueueOptions, QueuedCapability } from './define.js';

type Positional<I extends z.ZodObject, A> = {
  [K in keyof A]: A[K] extends keyof z.input<I> ? z.input<I>[A[K]] : never;
};
type OptionsOf<I extends z.ZodObject, O extends readonly PropertyKey[]> = {
  [K in O[number] & keyof z.input<I>]?: z.input<I>[K];
};
type Method<I extends z.ZodObject, A extends readonly unknown[], Opts, R> = [Opts] extends [never]
  ? (...args: Positional<I, A>) => Promise<R>
  : (...args: [...Positional<I, A>, options?: Opts]) => Promise<R>;

/** A declaration's SDK method: its `args` typed from its input schema, its result. */
export type MethodOf<C> =
  C extends Capability<infer I, infer A, infer R, infer O>
    ? Method<I, A, O extends readonly [] ? never : OptionsOf<I, O>, R>
    : C extends QueuedCapability<infer I, infer A, infer O>
      ? Method<
          I,
          A,
          O extends readonly [] ? QueueOptions : OptionsOf<I, O> & QueueOptions,
          SendResult
        >
      : never;

/** The methods of one area: `{ reject: (callId) => Promise<void> }`. */
export type AreaManager<T extends Record<string, AnyCapability>> = {
  readonly [M in keyof T]: MethodOf<T[M]>;
};

function optionsError(capability: AnyCapability): Error {
  return issueError('VALIDATION_FAILED', `Invalid options of ${capability.name}`, [
    { path: 'options', message: 'must be an object' },
  ]);
}

/** The options object after the positional arguments (`{}` when absent). */
function optionsOf(capability: AnyCapability, values: readonly unknown[]): Record<string, unknown> {
  const options = values[capability.args.length];
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) throw optionsError(capability);
  return options as Record<string, unknown>;
}

/** The declaration's input from the method's arguments, validated (issues name the arguments). */
export function capabilityInput(
  capability: AnyCapability,
  values: readonly unknown[],
): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  capability.args.forEach((name, i) => {
    if (values[i] !== undefined) raw[name] = values[i];
  });
  if (capability.options?.length) {
    const options = optionsOf(capability, values);
    for (const name of capability.options) {
      if (options[name] !== undefined) raw[name] = options[name];
    }
  }
  return parseInput(capability, raw);
}

/** A declaration's input, validated: VALIDATION_FAILED naming its fields. */
export function parseInput(
  capability: AnyCapability,
  raw: Record<string, unknown>,
): Record<string, unknown> {
  const parsed = capability.input.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw issueError(
    'VALIDATION_FAILED',
    `Invalid arguments of ${capability.name}`,
    zodIssues(parsed.error),
  );
}

/** The account's own id ('' while the engine does not know it). */
export function selfOf(core: ClientCore): string {
  try {
    return core.requireEngine().me()?.id ?? '';
  } catch {
    // not reported: no engine yet is an account not known yet
    return '';
  }
}

async function queued(
  core: ClientCore,
  capability: QueuedCapability<z.ZodObject, readonly string[], readonly string[]>,
  values: readonly unknown[],
): Promise<SendResult> {
  const send = capability.prepare(capabilityInput(capability, values), selfOf(core));
  const { idempotencyKey } = optionsOf(capability, values) as QueueOptions;
  const accepted = await core.accept(send.chatId, send.content, {
    priority: 'normal',
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  return accepted.result;
}

/** The manager of one area, on a client's core. */
export function buildManager<T extends Record<string, AnyCapability>>(
  core: ClientCore,
  area: T,
): AreaManager<T> {
  const manager: Record<string, (...values: unknown[]) => Promise<unknown>> = {};
  for (const [method, capability] of Object.entries(area)) {
    manager[method] =
      capability.mode === 'queued'
        ? async (...values) => queued(core, capability, values)
        : async (...values) => {
            const input = capabilityInput(capability, values);
            return capability.run(readyEngine(core), input);
          };
  }
  return Object.freeze(manager) as AreaManager<T>;
}
