import type { Logger } from 'pino';
import type { OutboundQueue } from '../queue/index.js';
import type { OutboxStore } from '../queue/outbox/index.js';

/** A notice is acted on after this pause, so a burst of appends costs one look. */
export const CATCH_UP_DEBOUNCE_MS = 25;
/** A look at the outbox even without notices: a lost pub/sub message cannot strand a send. */
export const CATCH_UP_POLL_MS = 1_000;

export interface OwnerCatchUpDeps {
  client: string;
  queue: OutboundQueue;
  outbox: OutboxStore;
  log: Logger;
}

/**
 * The node running a client in a fleet pages in the sends other nodes accepted for it. While
 * started, it follows the shared outbox's append notices (`OutboxStore.watch`) and also looks every
 * CATCH_UP_POLL_MS: when the outbox holds more unfinished sends of the client than its queue knows
 * of, the queue is told the counts again (`restore`), and loads the new ones page by page, in
 * acceptance order, with its pacing. Sends the queue holds already are skipped when their page
 * loads, so none is sent twice. Does nothing with a store that cannot be shared (no `watch`).
 */
export class OwnerCatchUp {
  readonly #d: OwnerCatchUpDeps;
  #unwatch: (() => void) | undefined;
  #poll: NodeJS.Timeout | undefined;
  #soon: NodeJS.Timeout | undefined;
  #looking = false;
  #again = false;

  constructor(deps: OwnerCatchUpDeps) {
    this.#d = deps;
  }

  get running(): boolean {
    return this.#unwatch !== undefined;
  }

  start(): void {
    const { outbox, client } = this.#d;
    if (this.#unwatch || !outbox.watch) return;
    this.#unwatch = outbox.watch(client, (notice) => {
      if (!notice.own) this.#lookSoon();
    });
    this.#poll = setInterval(() => void this.#look(), CATCH_UP_POLL_MS);
    this.#poll.unref();
    this.#lookSoon();
  }

  stop(): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
    clearInterval(this.#poll);
    clearTimeout(this.#soon);
    this.#poll = this.#soon = undefined;
  }

  #lookSoon(): void {
    if (this.#soon) return;
    this.#soon = setTimeout(() => {
      this.#soon = undefined;
      void this.#look();
    }, CATCH_UP_DEBOUNCE_MS);
    this.#soon.unref();
  }

  async #look(): Promise<void> {
    if (this.#looking) {
      this.#again = true;
      return;
    }
    this.#looking = true;
    const { outbox, queue, client, log } = this.#d;
    try {
      const open = await outbox.countOpen(client);
      const known = queue.stats();
      if (this.running && open.reply + open.normal + open.bulk > known.pending + known.running) {
        queue.restore(open);
      }
    } catch (error) {
      // not reported: Redis is unreachable; the next poll looks again
      log.debug({ err: error }, 'client %s: could not look for sends from other nodes', client);
    } finally {
      this.#looking = false;
      if (this.#again) {
        this.#again = false;
        this.#lookSoon();
      }
    }
  }
}
