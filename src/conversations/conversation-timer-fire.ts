/**
 * What a conversation's timer does when it fires (no new message needed): the reminder (journaled
 * as a step at the journal's next index, so it happens once), then the expiry with the bot's
 * message. Sends carry idempotency keys: a firing repeated after a crash sends nothing twice.
 */
import type { Clock } from '../kernel/clock.js';
import type { RunHost } from './conversation-run.js';
import type { ConversationRuns } from './conversation-runs.js';
import type { ConversationTimers } from './conversation-timers.js';
import type { ConversationStore, ConversationWait } from './store/conversation-store.js';

export interface TimerFireParts {
  store(): ConversationStore;
  runs: ConversationRuns;
  host: RunHost;
  timers: ConversationTimers;
  clock: Clock;
  /** Does this node run `client` now (READY here)? Timers fire only where the client runs. */
  runsHere(client: string): boolean;
  /** Is the chat out of `bot` mode (handoff)? Then the timer waits until it is back. */
  held(client: string, chatId: string): Promise<boolean>;
}

/**
 * Fires the timer of conversation `id` if it is due (else arms it again for when it is). Only on
 * the node that runs the client: elsewhere it is dropped, and armed again from the store when the
 * client becomes READY on a node (ConversationService.resumeAll). In a fleet two nodes firing the
 * same timer at once (a client between owners) still fire it once: the reminder's send has an
 * idempotency key in the shared outbox, and it is journaled as the step at the journal's next
 * index, which only one of them can append; the expiry ends the conversation, once.
 */
export async function fireTimer(p: TimerFireParts, id: string): Promise<void> {
  const record = await p.store().get(id);
  if (!record || record.wait.dueAt === undefined || !p.runsHere(record.client)) return;
  await p.runs.exclusive(record.client, record.chatId, record.member, async () => {
    const current = await p.store().get(id);
    const now = p.clock.now();
    if (!current || current.wait.dueAt === undefined) return false;
    // a person answers the chat (handoff): the timer waits until it is back to bot
    if (await p.held(current.client, current.chatId)) return false;
    if (current.wait.dueAt > now) {
      p.timers.set(id, current.wait.dueAt);
      return false;
    }
    const run = await p.runs.live(current.client, current.chatId, current.member);
    if (!run || run.record.id !== id) return false;
    if (run.steps !== current.steps) {
      // another node journaled a step (this timer's firing) since `current` was read: it fired
      // there; arm again from the record as it is now, so the reminder is not sent twice
      const fresh = await p.store().get(id);
      p.timers.set(id, fresh?.wait.dueAt);
      return false;
    }
    const timeout = p.runs.policy(run).timeout;
    if (current.wait.phase === 'remind' && timeout?.reminder !== false && timeout) {
      const reminder = timeout.reminder ?? 'Are you still there?';
      await p.host.send(current, `${id}:remind:${run.steps}`, reminder);
      const wait: ConversationWait = {
        dueAt: now + timeout.seconds * 1000,
        phase: 'expire',
        waiting: true,
      };
      if (await run.timerFired(wait)) p.timers.set(id, wait.dueAt);
      return true;
    }
    await p.host.send(current, `${id}:expired`, timeout?.expired ?? 'This conversation expired.');
    await p.runs.stop(run, 'expired');
    return true;
  });
}
