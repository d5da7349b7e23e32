/**
 * The active runs of the conversation service: its definitions, each chat member's run in memory
 * (or replayed from its journal on demand), its lane (one piece of work at a time per chat
 * member), and how a run begins and ends. The service's parts (messages, timers, the operator API)
 * act through it.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { WakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import { ChatLanes } from './chat-lanes.js';
import { ConversationRun, type RunHost } from './conversation-run.js';
import { keyOf } from './conversation-records.js';
import type { ConversationTimers } from './conversation-timers.js';
import type { ConversationRecord, ConversationStore } from './store/conversation-store.js';
import type { ConversationDefinition, EndReason } from './types.js';

export type AnyDefinition = ConversationDefinition<never>;

export interface ConversationRunsParts {
  store(): ConversationStore;
  host(): RunHost;
  timers: ConversationTimers;
  clock: Clock;
  log: Logger;
}

export class ConversationRuns {
  readonly #p: ConversationRunsParts;
  readonly #definitions = new Map<string, AnyDefinition>();
  /** Runs in memory by chat key (client, chat, member). */
  readonly #runs = new Map<string, ConversationRun>();
  readonly #lanes = new ChatLanes();

  constructor(parts: ConversationRunsParts) {
    this.#p = parts;
  }

  /** Registers a definition (plugins, during setup). */
  define(definition: AnyDefinition): void {
    if (this.#definitions.has(definition.name)) {
      throw new WakitError(
        'VALIDATION_FAILED',
        `A conversation named ${definition.name} is already defined`,
        { details: { conversation: definition.name } },
      );
    }
    this.#definitions.set(definition.name, definition);
  }

  get definitions(): readonly AnyDefinition[] {
    return [...this.#definitions.values()];
  }

  definition(name: string): AnyDefinition {
    const definition = this.#definitions.get(name);
    if (!definition) {
      throw new WakitError('CONVERSATION_UNKNOWN', `No conversation named ${name} is defined`, {
        details: { name, defined: [...this.#definitions.keys()] },
      });
    }
    return definition;
  }

  policy(run: ConversationRun): AnyDefinition {
    return this.#definitions.get(run.record.name) as AnyDefinition;
  }

  /** Runs `work` in the chat member's lane; its failure reaches the caller, the lane goes on. */
  exclusive(
    client: string,
    chatId: string,
    member: string,
    work: () => Promise<boolean>,
  ): Promise<boolean> {
    let consumed = false;
    let failure: { error: unknown } | undefined;
    return this.#lanes
      .run(keyOf({ client, chatId, member }), async () => {
        try {
          consumed = await work();
        } catch (error) {
          // handed on below: the lane keeps going, the caller gets the failure
          failure = { error };
        }
      })
      .then(() => {
        if (failure) throw failure.error;
        return consumed;
      });
  }

  /**
   * The active run of a chat member: in memory, or resumed from its journal (replayed). With a
   * shared store (a fleet) the run in memory is checked against the store first: another node may
   * have moved the conversation on, or ended it, since this node last ran it (the client moved
   * away and back, or an operator ended it through another node).
   */
  async live(client: string, chatId: string, member: string): Promise<ConversationRun | undefined> {
    const key = keyOf({ client, chatId, member });
    const run = this.#runs.get(key);
    const store = this.#p.store();
    if (run && !run.done && store.kind !== 'redis') return run;
    const record = await store.active(client, chatId, member);
    if (run && !run.done) {
      if (record?.id === run.record.id && record.steps === run.steps && run.waiting) return run;
      // stale: its code is parked at a wait that will never be answered; the journal is the truth
      this.#runs.delete(key);
      this.#p.timers.set(
        run.record.id,
        record?.id === run.record.id ? record.wait.dueAt : undefined,
      );
    }
    return record ? this.#resume(record) : undefined;
  }

  async begin(
    client: string,
    chatId: string,
    member: string,
    definition: AnyDefinition,
    input: unknown,
  ): Promise<ConversationRecord | undefined> {
    const host = this.#p.host();
    const active = await this.live(client, chatId, member);
    if (active) {
      const policy = this.policy(active);
      if (policy.onConflict !== 'replace') {
        await host.send(
          active.record,
          `${active.record.id}:busy:${active.steps}`,
          policy.busy ??
            `You are in the middle of "${active.record.name}": answer it, or send "cancel".`,
        );
        return undefined;
      }
      await this.stop(active, 'replaced');
    }
    const now = this.#p.clock.now();
    const record: ConversationRecord = {
      id: randomUUID(),
      client,
      chatId,
      member,
      name: definition.name,
      version: definition.version ?? 1,
      startedAt: now,
      updatedAt: now,
      steps: 0,
      wait: {},
      ...(input !== undefined ? { input } : {}),
    };
    if (!(await this.#p.store().begin(record))) return undefined;
    this.#p.log.info(
      { client, conversation: record.id, name: record.name },
      'conversation %s started',
      record.name,
    );
    await this.#run(record, definition, []);
    return record;
  }

  async stop(run: ConversationRun, reason: EndReason): Promise<void> {
    run.stop(reason);
    await this.finishRecord(run.record, reason);
  }

  /** Ends a record: store, timer, memory. */
  async finishRecord(record: ConversationRecord, reason: EndReason): Promise<void> {
    const key = keyOf(record);
    const run = this.#runs.get(key);
    if (run?.record.id === record.id) this.#runs.delete(key);
    this.#p.timers.set(record.id, undefined);
    if (run && !run.done) run.stop(reason);
    if (await this.#p.store().end(record.id)) {
      this.#p.log.info(
        { client: record.client, conversation: record.id, name: record.name, reason },
        'conversation %s ended: %s',
        record.name,
        reason,
      );
    }
  }

  async #run(
    record: ConversationRecord,
    definition: AnyDefinition,
    journal: Awaited<ReturnType<ConversationStore['steps']>>,
  ): Promise<ConversationRun> {
    const run = new ConversationRun(
      record,
      definition,
      journal,
      this.#p.host(),
      record.input ?? null,
    );
    this.#runs.set(keyOf(record), run);
    await run.start();
    return run;
  }

  async #resume(record: ConversationRecord): Promise<ConversationRun | undefined> {
    const definition = this.#definitions.get(record.name);
    if (!definition || (definition.version ?? 1) !== record.version) {
      const text =
        definition?.versionChanged ??
        'This conversation was updated and had to end: please start again.';
      await this.#p.host().send(record, `${record.id}:version`, text);
      await this.finishRecord(record, 'version');
      return undefined;
    }
    const run = await this.#run(record, definition, await this.#p.store().steps(record.id));
    return run.done ? undefined : run;
  }
}
