/**
 * Per-chat order: work of one key runs one at a time, in arrival order; keys run in parallel up
 * to `concurrency`. A slow chat holds only itself (and one of the slots).
 */
export class ChatLanes {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(readonly concurrency: number = Infinity) {}

  /** Runs `work` after the earlier work of `key`; never rejects (`work` handles its failures). */
  run(key: string, work: () => Promise<void>): Promise<void> {
    const before = this.#tails.get(key);
    const mine = (before ?? Promise.resolve()).then(() => this.#slot(work));
    this.#tails.set(key, mine);
    void mine.then(() => {
      if (this.#tails.get(key) === mine) this.#tails.delete(key);
    });
    return mine;
  }

  /** Keys with work queued or running. */
  get busy(): number {
    return this.#tails.size;
  }

  /** Resolves once no work is queued or running. */
  async idle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all([...this.#tails.values()]);
  }

  async #slot(work: () => Promise<void>): Promise<void> {
    if (this.#running >= this.concurrency) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#running += 1;
    try {
      await work();
    } catch {
      // not reported: callers pass work that reports its own failures
    } finally {
      this.#running -= 1;
      this.#waiting.shift()?.();
    }
  }
}
