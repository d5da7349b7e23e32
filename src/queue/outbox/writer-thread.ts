import { Worker } from 'node:worker_threads';
import type { WriterData, WriterReply, WriterRequest } from './sqlite-writer.js';
import type { Write, WriteResult } from './sqlite-writes.js';

/** How a batch ended: its outcomes in order, or why its transaction failed (nothing of it kept). */
export type BatchDone = (
  error: { code?: string; message: string } | undefined,
  out?: WriteResult,
) => void;

/**
 * The writer's module beside this one: JavaScript when built; from the TypeScript sources (tests,
 * `npm run demo`) through a bootstrap that registers tsx in the thread first.
 */
function startWriter(data: WriterData): Worker {
  const built = !import.meta.url.endsWith('.ts');
  const file = built ? './sqlite-writer.js' : './sqlite-writer-source.mjs';
  return new Worker(new URL(file, import.meta.url), { workerData: data });
}

/**
 * The event loop's side of the outbox's writer thread: posts batches (numbered 1, 2, …, committed
 * in that order), settles each with its answer, and says when none is in flight. The thread keeps
 * the process alive only while a batch is in flight. If it dies, every batch in flight and every
 * later one fails (the outbox reports STORAGE_UNAVAILABLE).
 */
export class WriterThread {
  readonly #worker: Worker;
  readonly #inFlight = new Map<number, BatchDone>();
  readonly #idle: Array<() => void> = [];
  #posted = 0;
  #dead: { message: string } | undefined;
  #closing = false;

  constructor(data: WriterData) {
    this.#worker = startWriter(data);
    this.#worker.unref();
    this.#worker.on('message', (reply: WriterReply) => this.#settle(reply));
    this.#worker.on('error', (error: Error) => this.#die(error.message));
    this.#worker.on('exit', (code) => this.#die(`the outbox writer thread exited (${code})`));
  }

  /** Posts one batch; returns its number. */
  post(writes: Write[], done: BatchDone): number {
    const n = ++this.#posted;
    if (this.#dead) {
      done(this.#dead);
      return n;
    }
    if (this.#inFlight.size === 0) this.#worker.ref();
    this.#inFlight.set(n, done);
    this.#worker.postMessage({ n, writes } satisfies WriterRequest);
    return n;
  }

  /** The number the next batch will have. */
  get next(): number {
    return this.#posted + 1;
  }

  /** Resolves once no batch is in flight (each settled first). */
  idle(): Promise<void> {
    if (this.#inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Waits for the batches in flight, then stops the thread. */
  async close(): Promise<void> {
    await this.idle();
    this.#closing = true;
    if (this.#dead) return;
    const exited = new Promise((resolve) => this.#worker.once('exit', resolve));
    this.#worker.ref();
    this.#worker.postMessage('close' satisfies WriterRequest);
    await exited;
  }

  #settle(reply: WriterReply): void {
    const done = this.#inFlight.get(reply.n);
    this.#inFlight.delete(reply.n);
    done?.(reply.error, reply.out);
    if (this.#inFlight.size === 0) this.#drained();
  }

  #drained(): void {
    this.#worker.unref();
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  #die(message: string): void {
    if (this.#closing || this.#dead) return;
    this.#dead = { message };
    for (const done of this.#inFlight.values()) done(this.#dead);
    this.#inFlight.clear();
    this.#drained();
  }
}
