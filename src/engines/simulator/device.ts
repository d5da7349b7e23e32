import type { SimAccount } from './account.js';
import type { SimulatorEngine } from './engine.js';
import type { SimulatorNetwork } from './network.js';

/** What the port operations of one simulator engine (outgoing.ts, engine-ops.ts) use of it. */
export interface SimDevice {
  readonly network: SimulatorNetwork;
  /** The engine itself: it fires the events and is the sending device. */
  readonly engine: SimulatorEngine;
  /** The linked account; throws CLIENT_NOT_READY while not linked and ready. */
  ready(): SimAccount;
  /**
   * A timer the engine clears when it stops. `fn` returning true runs it again `ms` later, on the
   * same timer (the acks of a send: one timer instead of three).
   */
  after(ms: number, fn: () => boolean | void): void;
  /** Waits; rejects with CLIENT_NOT_READY when the engine stops meanwhile. */
  sleep(ms: number): Promise<void>;
}

/** Runs `fn` on the ready account; its throws become rejections. */
export function onAccount<T>(device: SimDevice, fn: (account: SimAccount) => T): Promise<T> {
  try {
    return Promise.resolve(fn(device.ready()));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
