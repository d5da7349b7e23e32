/** Time source of the kernel; tests replace it (or use sinon fake timers, which this honours). */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
  clearTimeout(handle: NodeJS.Timeout): void;
}

/** The real time (the kernel's `CLOCK` by default). */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): NodeJS.Timeout {
    return setTimeout(fn, ms);
  }

  clearTimeout(handle: NodeJS.Timeout): void {
    clearTimeout(handle);
  }
}

export const systemClock: Clock = new SystemClock();
