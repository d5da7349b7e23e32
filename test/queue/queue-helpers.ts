import sinon from 'sinon';
import { queueSchema, type QueueConfig } from '../../src/config/schema.js';
import { WakitError, type ErrorCode } from '../../src/errors/index.js';
import type { Clock } from '../../src/kernel/clock.js';
import { OutboundQueue } from '../../src/queue/index.js';
import type { QueueJob, SendPriority } from '../../src/queue/index.js';
export { rejection } from '../helpers/rejection.js';

export const T0 = 1_700_000_000_000;

/** Fakes timers and Date only: promise jobs and p-queue's microtasks stay real. */
export function fakeClock(): sinon.SinonFakeTimers {
  return sinon.useFakeTimers({
    now: T0,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
}

/**
 * Fake time of the test's own: a sinon clock installed on a private object, not on the process's
 * globals, handed to the code as its kernel `Clock`. Timers that other tests' leftovers arm on the
 * real globals never run on it (they made a 3-day tick take minutes in the full suite).
 */
export function isolatedClock(now: number = T0): { fake: sinon.SinonFakeTimers; clock: Clock } {
  const own = {
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    setImmediate,
    clearImmediate,
    Date,
    Promise, // tickAsync exists only when the object has one
  };
  const fake = sinon.useFakeTimers({
    now,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    global: own,
  } as Parameters<typeof sinon.useFakeTimers>[0]);
  const clock: Clock = {
    now: () => fake.now,
    setTimeout: (fn, ms) => own.setTimeout(fn, ms),
    clearTimeout: (handle) => own.clearTimeout(handle),
  };
  return { fake, clock };
}

export const NO_PACING = { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 } as const;

export function makeQueue(
  config: Partial<QueueConfig> = {},
  random: () => number = () => 0,
): OutboundQueue {
  return new OutboundQueue({ client: 'alice', config: queueSchema.parse(config), random });
}

export interface SendLog {
  chatId: string;
  at: number;
  signal: AbortSignal;
}

/** Jobs whose sends are recorded (chat and time); ids are m1, m2, ... in send order. */
export class Recorder {
  readonly sends: SendLog[] = [];

  job(chatId: string, priority?: SendPriority): QueueJob {
    return {
      chatId,
      kind: 'text',
      ...(priority ? { priority } : {}),
      run: (signal) => {
        this.sends.push({ chatId, at: Date.now() - T0, signal });
        return Promise.resolve({ id: `m${this.sends.length}` });
      },
    };
  }

  /** A job failing with the given codes in turn, then succeeding. `plain` throws a non-Wakit error. */
  failing(chatId: string, failures: (ErrorCode | 'plain')[]): QueueJob {
    let call = 0;
    return {
      chatId,
      kind: 'text',
      run: (signal) => {
        this.sends.push({ chatId, at: Date.now() - T0, signal });
        const failure = failures[call++];
        if (failure === 'plain') return Promise.reject(new Error('socket hang up'));
        if (failure) return Promise.reject(new WakitError(failure, `failed with ${failure}`));
        return Promise.resolve({ id: `m${this.sends.length}` });
      },
    };
  }

  /** A job that never settles by itself (it records its signal). */
  hanging(chatId: string): QueueJob {
    return {
      chatId,
      kind: 'text',
      run: (signal) => {
        this.sends.push({ chatId, at: Date.now() - T0, signal });
        return new Promise(() => {});
      },
    };
  }

  get chats(): string[] {
    return this.sends.map((send) => send.chatId);
  }

  get times(): number[] {
    return this.sends.map((send) => send.at);
  }
}

/** Lets every pending promise job run without moving the fake clock (setImmediate is not faked). */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
