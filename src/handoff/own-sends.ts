/**
 * Which messages of the account wakit sent itself. Every wakit send goes through the client's
 * outbound queue, whose tracked sends carry the WhatsApp message id once sent (`message.status`).
 * A `message.create` with `fromMe` can arrive before the send call returned that id (the engine
 * echoes the message while the call is still running): while a send is in flight, the decision
 * waits for it to settle.
 */
import type { BotClient } from '../client/bot-client.js';
import type { TrackedSend } from '../queue/index.js';

/** Message ids of recent wakit sends kept per client (the echo comes within moments). */
const REMEMBERED = 4_096;

export class OwnSends {
  readonly #ids = new Set<string>();
  #wake: (() => void)[] = [];
  readonly #listener = (send: TrackedSend): void => {
    if (send.messageId !== undefined && !this.#ids.has(send.messageId)) {
      this.#ids.add(send.messageId);
      if (this.#ids.size > REMEMBERED) this.#ids.delete(this.#ids.values().next().value!);
    }
    const wake = this.#wake;
    this.#wake = [];
    for (const fn of wake) fn();
  };

  constructor(
    private readonly client: BotClient,
    /** How long to wait for a send in flight at most (the queue's send timeout). */
    private readonly maxWaitMs: number,
  ) {
    client.on('message.status', this.#listener);
  }

  /** Did wakit send this message? */
  async sent(messageId: string): Promise<boolean> {
    const deadline = Date.now() + this.maxWaitMs;
    while (!this.#ids.has(messageId) && this.client.info().queue.running > 0) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        timer.unref();
        this.#wake.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.#ids.has(messageId);
  }

  close(): void {
    this.client.off('message.status', this.#listener);
  }
}
