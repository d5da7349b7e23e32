/**
 * One active conversation in memory: its code running on top of its journal. On a fresh start the
 * journal is empty; after a restart (or on another node) the code is replayed: every step already
 * journaled returns what it returned the first time, without doing it again, until the code
 * reaches the step where it was, and goes on live from there.
 */
import { createHash } from 'node:crypto';
import { WakitError } from '../errors/index.js';
import { runAllowed, runGuarded } from '../kernel/effect-guard.js';
import type { SendContent } from '../client/send/send-contract.js';
import type { ConversationRecord, ConversationWait, Step } from './store/conversation-store.js';
import type {
  Conversation,
  ConversationDefinition,
  EndReason,
  Reply,
  SayOptions,
} from './types.js';
import { attachPrompts } from './prompts.js';
import { ConversationExit } from './conversation-exit.js';

/** What a run needs from its service. */
export interface RunHost {
  /** Journals a step at `index` (false: already there). */
  append(id: string, index: number, step: Step, wait: ConversationWait): Promise<boolean>;
  setWait(id: string, wait: ConversationWait): Promise<void>;
  /** Sends through the outbox with an idempotency key; resolves to the tracking id once accepted. */
  send(
    record: ConversationRecord,
    key: string,
    content: SendContent,
    options?: SayOptions,
  ): Promise<string>;
  /** The WhatsApp id of a tracked send once it went out; null while unknown. */
  sentMessageId(record: ConversationRecord, trackingId: string): Promise<string | null>;
  /** The wait a live `wait()` sets: its timer (from the definition's timeout). */
  waitFor(definition: ConversationDefinition<never>): ConversationWait;
  state(
    record: ConversationRecord,
    definition: ConversationDefinition<never>,
  ): {
    get(): Promise<unknown>;
    update(fn: (value: unknown) => unknown): Promise<unknown>;
  };
  now(): number;
  /** The run finished (completed, ended by its code, or failed). */
  finished(run: ConversationRun, reason: EndReason, error?: unknown): void;
}

/** A fingerprint of what a step sent: a replay that sends something else is caught by it. */
export function fingerprint(content: unknown): string {
  return createHash('sha1')
    .update(JSON.stringify(content) ?? '')
    .digest('base64url')
    .slice(0, 12);
}

export class ConversationRun {
  readonly record: ConversationRecord;
  readonly #definition: ConversationDefinition<never>;
  readonly #host: RunHost;
  readonly #journal: Step[];
  readonly #seen = new Set<string>();
  #cursor = 0;
  #waiting: { resolve(reply: Reply): void; reject(error: unknown): void } | undefined;
  #idle: { promise: Promise<void>; resolve(): void };
  #done = false;
  /** The wait journaled before a restart: a resumed run keeps its timer instead of a new one. */
  #resumedWait: ConversationWait | undefined;

  constructor(
    record: ConversationRecord,
    definition: ConversationDefinition<never>,
    journal: Step[],
    host: RunHost,
    readonly input: unknown,
  ) {
    this.record = record;
    this.#definition = definition;
    this.#host = host;
    this.#journal = journal;
    for (const step of journal) {
      if (step.k === 'in') {
        const reply = step.v as Reply;
        if (reply.kind === 'message') this.#seen.add(reply.id);
      }
    }
    this.#idle = deferred();
    if (record.wait.dueAt !== undefined) this.#resumedWait = record.wait;
  }

  get done(): boolean {
    return this.#done;
  }

  /** True while the code waits for the person (a message can be fed). */
  get waiting(): boolean {
    return this.#waiting !== undefined;
  }

  /** Journaled steps (the length of the journal). */
  get steps(): number {
    return this.#journal.length;
  }

  /** Starts (or replays) the code; resolves when it waits for the person or has finished. */
  start(): Promise<void> {
    const conv = this.#api();
    void runGuarded(this.record.id, async () => {
      try {
        await this.#definition.run(conv as never);
        this.#finish('completed');
      } catch (error) {
        if (error instanceof ConversationExit) this.#finish(error.reason);
        else this.#finish('failed', error);
      }
    });
    return this.#idle.promise;
  }

  /** True when this message was already journaled (a redelivery after a crash). */
  seen(messageId: string): boolean {
    return this.#seen.has(messageId);
  }

  /**
   * Gives the waiting code the person's answer: journaled first, so a crash after this point
   * replays it. Resolves when the code waits again or finished.
   */
  async feed(reply: Reply): Promise<void> {
    const waiting = this.#waiting;
    if (!waiting || this.#done) return;
    if (reply.kind === 'message') {
      if (this.#seen.has(reply.id)) return;
      this.#seen.add(reply.id);
    }
    const step: Step = { k: 'in', v: reply };
    const index = this.#journal.length;
    if (!(await this.#host.append(this.record.id, index, step, {}))) return;
    this.#journal.push(step);
    this.#cursor = this.#journal.length;
    this.#waiting = undefined;
    this.#idle = deferred();
    const idle = this.#idle.promise;
    waiting.resolve(reply);
    return idle;
  }

  /** Journals a fired reminder at the waiting position. */
  async timerFired(wait: ConversationWait): Promise<boolean> {
    const step: Step = { k: 'timer', v: 'remind' };
    const index = this.#journal.length;
    if (!(await this.#host.append(this.record.id, index, step, wait))) return false;
    this.#journal.push(step);
    this.#cursor = this.#journal.length;
    return true;
  }

  /** Unwinds the code (cancel, expiry, an operator's end): its wait rejects with an exit. */
  stop(reason: EndReason): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) waiting.reject(new ConversationExit(reason));
    else this.#finish(reason);
  }

  #finish(reason: EndReason, error?: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#waiting = undefined;
    this.#host.finished(this, reason, error);
    this.#idle.resolve();
  }

  /** One step: replayed from the journal when it is there, else done live and journaled. */
  async #step<T>(
    kind: 'say' | 'ext',
    live: (index: number) => Promise<{ step: Step; value: T }>,
    hash?: string,
  ): Promise<T> {
    this.#assertRunning();
    const index = this.#cursor;
    if (index < this.#journal.length) {
      const step = this.#journal[index];
      if (step.k !== kind || (hash !== undefined && step.k === 'say' && step.h !== hash)) {
        throw this.#diverged(index, step.k, kind);
      }
      this.#cursor += 1;
      return (step as { v?: unknown }).v as T;
    }
    await this.#flush({});
    const { step, value } = await live(index);
    // a send is journaled with what comes next (the wait, usually): one write a step instead of
    // two. Until then a replay sends it again under the same idempotency key: sent once.
    if (kind === 'say') this.#unjournaled = { index, step };
    else await this.#journalAt(index, step, {});
    this.#journal.push(step);
    this.#cursor += 1;
    return value;
  }

  /** A send not journaled yet (the last step), journaled by the next write. */
  #unjournaled: { index: number; step: Step } | undefined;

  /** Journals the send not journaled yet, with `wait`; false when there was none. */
  async #flush(wait: ConversationWait): Promise<boolean> {
    const pending = this.#unjournaled;
    if (!pending) return false;
    this.#unjournaled = undefined;
    await this.#journalAt(pending.index, pending.step, wait);
    return true;
  }

  async #journalAt(index: number, step: Step, wait: ConversationWait): Promise<void> {
    if (!(await this.#host.append(this.record.id, index, step, wait))) {
      throw new WakitError(
        'STATE_CONFLICT',
        `Conversation ${this.record.id}: step ${index} was journaled by another writer`,
        { details: { conversation: this.record.id, step: index } },
      );
    }
  }

  #diverged(index: number, found: string, wanted: string): WakitError {
    return new WakitError(
      'CONVERSATION_NONDETERMINISTIC',
      `Conversation ${this.record.name} (${this.record.id}) took another path on replay: step ${index} ` +
        `was "${found}", the code now does "${wanted}". Its code changed without a new version, or ` +
        'it branched on something not journaled (Date.now(), Math.random(), a read outside conv): ' +
        'use conv.now(), conv.random(), conv.external(), and raise `version` when the code changes',
      {
        details: {
          conversation: this.record.id,
          name: this.record.name,
          step: index,
          found,
          wanted,
        },
      },
    );
  }

  #assertRunning(): void {
    if (this.#done) throw new ConversationExit('ended');
  }

  async #wait(): Promise<Reply> {
    this.#assertRunning();
    while (this.#journal[this.#cursor]?.k === 'timer') this.#cursor += 1;
    const journaled = this.#journal[this.#cursor];
    if (journaled) {
      if (journaled.k !== 'in') throw this.#diverged(this.#cursor, journaled.k, 'wait');
      this.#cursor += 1;
      return journaled.v as Reply;
    }
    const resumed = this.#resumedWait;
    this.#resumedWait = undefined;
    const wait: ConversationWait = resumed ?? {
      ...this.#host.waitFor(this.#definition),
      waiting: true,
    };
    // the last send and the wait in one write (or the wait alone)
    if (!(await this.#flush(wait)) && !resumed) await this.#host.setWait(this.record.id, wait);
    this.record.wait = wait;
    const reply = new Promise<Reply>((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
    this.#idle.resolve();
    return reply;
  }

  #api(): Conversation<unknown> {
    const record = this.record;
    const host = this.#host;
    const definition = this.#definition;
    const sayTracked = (content: SendContent, options?: SayOptions): Promise<string> => {
      // the fingerprint is the content's alone: how it is shown (typing) is not what a replay checks
      const hash = fingerprint(content);
      return this.#step(
        'say',
        async (index) => {
          const id = await runAllowed(() =>
            host.send(record, `${record.id}:${index}`, content, options),
          );
          return { step: { k: 'say', h: hash, v: id }, value: id };
        },
        hash,
      );
    };
    const say = async (content: SendContent, options?: SayOptions): Promise<void> => {
      await sayTracked(content, options);
    };
    const external = <T>(fn: () => T | Promise<T>): Promise<T> =>
      this.#step('ext', async () => {
        const value = await runAllowed(fn);
        return { step: { k: 'ext', v: value === undefined ? null : value }, value };
      });
    const state = host.state(record, definition);
    const conv: Omit<
      Conversation<unknown>,
      'text' | 'number' | 'confirm' | 'choose' | 'media' | 'location' | 'contact'
    > = {
      id: record.id,
      name: record.name,
      client: record.client,
      chatId: record.chatId,
      member: record.member,
      input: this.input,
      say,
      wait: () => this.#wait(),
      external,
      now: () => external(() => host.now()),
      random: () => external(() => Math.random()),
      state: {
        get: () => external(() => state.get()),
        update: (fn) => external(() => state.update(fn)),
      },
      end: async (message, options) => {
        if (message !== undefined) await say(message, options);
        throw new ConversationExit('ended');
      },
    };
    return attachPrompts(conv, {
      sayTracked,
      sentMessageId: (trackingId) => host.sentMessageId(record, trackingId),
    });
  }
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
