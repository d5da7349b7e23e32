import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Logger } from 'pino';

export interface EventLoopStats {
  /** Longest block of the event loop within the last check window, in ms. */
  maxMs: number;
  /** Mean event-loop delay since start (Node's monitorEventLoopDelay), in ms. */
  meanMs: number;
  /** 99th percentile of the event-loop delay since start, in ms. */
  p99Ms: number;
  /** Longest delay since start, in ms. */
  worstMs: number;
}

export interface EventLoopMonitorOptions {
  /** Log a warning when the event loop was blocked longer than this. */
  warnMs: number;
  /** Length of a check window. */
  checkMs: number;
  logger: Logger;
}

const NS_PER_MS = 1e6;
/** Sampling period of the histogram and of the block detector. */
const RESOLUTION_MS = 20;

/**
 * Watches the event loop. Node's `monitorEventLoopDelay` histogram (never reset: a reset drops the
 * sample of a block still pending) gives the distribution since start; a timer ticking every
 * 20 ms measures how late it runs, so each block is seen once, in its window. Every `checkMs` the
 * window's longest block is kept (for `/metrics`) and, over `warnMs`, logged as a warning (a
 * handler spinning on the CPU freezes every client and the REST API alike).
 */
export class EventLoopMonitor {
  readonly #options: EventLoopMonitorOptions;
  #histogram: IntervalHistogram | undefined;
  #sampler: NodeJS.Timeout | undefined;
  #checker: NodeJS.Timeout | undefined;
  #lastTick = 0;
  #windowMaxMs = 0;
  #lastWindowMaxMs = 0;
  #worstMs = 0;

  constructor(options: EventLoopMonitorOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#histogram) return;
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    this.#histogram = histogram;
    this.#lastTick = performance.now();
    this.#sampler = setInterval(() => this.#tick(), RESOLUTION_MS);
    this.#sampler.unref();
    this.#checker = setInterval(() => this.#check(), this.#options.checkMs);
    this.#checker.unref();
  }

  stop(): void {
    clearInterval(this.#sampler);
    clearInterval(this.#checker);
    this.#sampler = undefined;
    this.#checker = undefined;
    this.#histogram?.disable();
    this.#histogram = undefined;
  }

  /** The last window's longest block, and the delay distribution since start. */
  stats(): EventLoopStats {
    const histogram = this.#histogram;
    const has = histogram !== undefined && histogram.count > 0;
    const histogramMax = has ? histogram.max / NS_PER_MS : 0;
    return {
      maxMs: this.#lastWindowMaxMs,
      meanMs: has ? histogram.mean / NS_PER_MS : 0,
      p99Ms: has ? histogram.percentile(99) / NS_PER_MS : 0,
      worstMs: Math.max(this.#worstMs, histogramMax),
    };
  }

  #tick(): void {
    const now = performance.now();
    const lateMs = Math.max(0, now - this.#lastTick - RESOLUTION_MS);
    this.#lastTick = now;
    if (lateMs > this.#windowMaxMs) this.#windowMaxMs = lateMs;
    if (lateMs > this.#worstMs) this.#worstMs = lateMs;
    if (lateMs > this.#options.warnMs) {
      this.#options.logger.warn(
        { delayMs: Math.round(lateMs), warnMs: this.#options.warnMs },
        'the event loop was blocked for %d ms (over %d ms): a handler is spinning on the CPU',
        Math.round(lateMs),
        this.#options.warnMs,
      );
    }
  }

  #check(): void {
    this.#lastWindowMaxMs = this.#windowMaxMs;
    this.#windowMaxMs = 0;
  }
}
