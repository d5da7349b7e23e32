import type { QueueConfig } from '../config/schema.js';
import { WakitError } from '../errors/index.js';

/** The errors an outbound queue refuses or ends a send with (codes from src/errors/codes.ts). */
export const queueErrors = {
  closed(client: string): WakitError {
    return new WakitError(
      'SHUTTING_DOWN',
      `The outbound queue of client "${client}" accepts no new sends`,
      { details: { client } },
    );
  },

  /** QUEUE_FULL; `details.retryAfterMs` is the average time one send takes to leave the queue. */
  full(client: string, size: number, config: QueueConfig): WakitError {
    const retryAfterMs = Math.max(1_000, config.minGapMs + Math.ceil(config.jitterMs / 2));
    return new WakitError(
      'QUEUE_FULL',
      `The outbound queue of client "${client}" is full (${size} sends)`,
      { details: { client, maxSize: config.maxSize, retryAfterMs } },
    );
  },

  badJob(priority: unknown, allowed: string[]): WakitError {
    return new WakitError(
      'VALIDATION_FAILED',
      'A queue job needs a run function and a known priority',
      { details: { priority, allowed } },
    );
  },

  unknownEvent(event: string): WakitError {
    return new WakitError('VALIDATION_FAILED', `Unknown outbound queue event "${event}"`, {
      details: { event },
    });
  },

  shuttingDown(client: string, message: string): WakitError {
    return new WakitError('SHUTTING_DOWN', message, { details: { client } });
  },
};
