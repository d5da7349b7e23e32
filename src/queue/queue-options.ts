import type { Logger } from 'pino';
import type { QueueConfig } from '../config/schema.js';
import type { Clock } from '../kernel/clock.js';
import type { SendEntry } from './send-entry.js';
import type { SendGate } from './send-gate.js';

export interface OutboundQueueOptions {
  /** Client name, carried by every tracked send. */
  client: string;
  config: QueueConfig;
  clock?: Clock;
  /** Source of jitter, uniform in [0, 1); tests inject it. */
  random?: () => number;
  logger?: Logger;
  /** Called on every change of a tracked send (the outbox journals it); must not throw. */
  onChange?: (entry: SendEntry) => void;
  /**
   * Awaited after each send before the next one starts: resolves once the send's outcome is
   * journaled (`OutboxStore.committed`), which keeps the at-least-once window to one send.
   */
  durable?: () => Promise<void>;
  /** Asked before each send goes out (the client's `SEND_GATE`); default: every send may go. */
  gate?: SendGate;
}
