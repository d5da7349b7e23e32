/**
 * What a conversation's run asks of its service (RunHost): journaling, timers, sends through the
 * outbox with idempotency keys, chat state, and what happens when a run finishes.
 */
import type { BotClient } from '../client/bot-client.js';
import { prepareContent } from '../client/send/send-contract.js';
import type { Clock } from '../kernel/clock.js';
import { runAllowed } from '../kernel/effect-guard.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import type { ChatStates } from './chat-state.js';
import type { RunHost } from './conversation-run.js';
import type { ConversationTimers } from './conversation-timers.js';
import type { ConversationRecord, ConversationStore } from './store/conversation-store.js';
import type { EndReason } from './types.js';

export interface RunHostParts {
  store(): ConversationStore;
  timers: ConversationTimers;
  states: ChatStates;
  clock: Clock;
  clients: { get(name: string): BotClient };
  sentMessageId(trackingId: string): Promise<string | null>;
  report(report: ErrorReport): void;
  /** Ends a record (store, timers, memory). */
  finishRecord(record: ConversationRecord, reason: EndReason): Promise<void>;
}

export function createRunHost(p: RunHostParts): RunHost {
  const host: RunHost = {
    append: async (id, index, step, wait) => {
      if (!(await p.store().append(id, index, step, wait))) return false;
      p.timers.set(id, wait.dueAt);
      return true;
    },
    setWait: async (id, wait) => {
      await p.store().setWait(id, wait);
      p.timers.set(id, wait.dueAt);
    },
    send: async (record, key, content, options) => {
      const client = p.clients.get(record.client);
      // the service's own sends (and conv.say's): allowed inside a conversation's scope
      const queued = await runAllowed(() =>
        client.enqueue(prepareContent(record.chatId, content), {
          priority: 'reply',
          idempotencyKey: key,
          idempotencyScope: 'conversation',
          ...(options?.typing !== undefined ? { typing: options.typing } : {}),
        }),
      );
      queued.result.catch(() => {
        // not reported: the queue reports a failed send (message.status, the error sink)
      });
      return queued.trackingId;
    },
    sentMessageId: (_record, trackingId) => p.sentMessageId(trackingId),
    waitFor: (definition) => {
      const timeout = definition.timeout;
      if (!timeout) return {};
      return {
        dueAt: p.clock.now() + timeout.seconds * 1000,
        phase: timeout.reminder === false ? 'expire' : 'remind',
      };
    },
    state: (record, definition) => {
      const handle = p.states.of(record.client, record.chatId, definition.state, record.member);
      return {
        get: () => handle.get(),
        update: (fn) => handle.update(fn as unknown as (v: never) => never),
      };
    },
    now: () => p.clock.now(),
    finished: (run, reason, error) => {
      const where = (event: string, e: unknown): void =>
        p.report({ source: 'conversation', client: run.record.client, event, error: e });
      if (error !== undefined) {
        where(`conversation:${run.record.name}`, error);
        void host
          .send(
            run.record,
            `${run.record.id}:failed`,
            'Sorry, something went wrong: please start again.',
          )
          .catch((e: unknown) => where('conversation:failed-message', e));
      }
      void p.finishRecord(run.record, reason).catch((e: unknown) => where('conversation:end', e));
    },
  };
  return host;
}
