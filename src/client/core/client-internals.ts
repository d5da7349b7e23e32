import { WakitError } from '../../errors/index.js';
import type { TrackedSend } from '../../queue/index.js';
import type { ClientCore } from './client-core.js';
import type { Message } from '../inbound/message.js';
import type { MessageData } from '../types.js';

/**
 * What the kernel (and only the kernel) does with a client beyond the SDK surface: drain and close
 * it at shutdown, look up its tracked sends. Not exported from `src/index.ts`.
 */
export interface ClientInternals {
  /** Stop taking sends and let the queue finish within a deadline. */
  drain(deadlineMs: number): Promise<void>;
  /** Final teardown. */
  close(): Promise<void>;
  /** A tracked send of this client by its tracking id. */
  getSend(trackingId: string): TrackedSend | undefined;
  /** The client's events, for kernel services that emit some (the send governor's `account.*`). */
  events: ClientCore['events'];
  /** A received message of this client again, from its plain data (a turn kept across a restart). */
  message(data: MessageData): Message;
}

/** A client as its internals are filed (a `BotClient`; typed by what is used, so no import cycle). */
interface ClientKey {
  readonly name: string;
}

const handles = new WeakMap<ClientKey, ClientInternals>();

export function registerInternals(client: ClientKey, internals: ClientInternals): void {
  handles.set(client, internals);
}

export function internalsOf(client: ClientKey): ClientInternals {
  const internals = handles.get(client);
  if (!internals) throw new WakitError('INTERNAL', `Not a client of this SDK: ${client.name}`);
  return internals;
}
