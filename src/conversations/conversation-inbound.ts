/**
 * What reaches conversations from a chat: a message (an answer, a cancel word, a command that
 * interrupts, a keyword that starts one), a poll vote (an answer to a menu), a command trigger.
 */
import type { BotClient } from '../client/bot-client.js';
import type { Message } from '../client/inbound/message.js';
import type { PollVote } from '../client/types.js';
import type { Clock } from '../kernel/clock.js';
import type { ConversationRun, RunHost } from './conversation-run.js';
import type { AnyDefinition, ConversationRuns } from './conversation-runs.js';
import { replyOf } from './conversation-records.js';
import { chatOf } from './person-key.js';
import { normalize } from './prompts.js';

const DEFAULT_CANCEL = ['cancel'];

export interface InboundParts {
  runs: ConversationRuns;
  host: RunHost;
  clock: Clock;
  /** Is this text a command someone registered? */
  isCommand(body: string): boolean;
}

export class ConversationInbound {
  readonly #p: InboundParts;

  constructor(parts: InboundParts) {
    this.#p = parts;
  }

  /**
   * A message of a chat with an active conversation is its answer (a cancel word ends it; a
   * command interrupts it by its policy); without one, a keyword or pattern may start one.
   * Returns true when the message was consumed.
   */
  async onMessage(client: BotClient, message: Message): Promise<boolean> {
    if (message.fromMe || message.isStatus || message.broadcast || message.isChannel) return false;
    const { runs } = this.#p;
    const { chatId, member } = chatOf(message);
    return runs.exclusive(client.name, chatId, member, async () => {
      const run = await runs.live(client.name, chatId, member);
      if (run) return this.#answer(run, message);
      const definition = this.#keywordTrigger(message);
      if (!definition) return false;
      await runs.begin(client.name, chatId, member, definition, message.body.trim());
      return true;
    });
  }

  /** A poll vote: the answer of the conversation of the voter, if it waits. */
  async onVote(client: BotClient, vote: PollVote): Promise<void> {
    const { runs } = this.#p;
    const isGroup = vote.chatId.endsWith('@g.us');
    // the voter as one person id: a vote may name the number where messages came by LID
    const known = await client.resolveContact(vote.voter).catch(() => {
      // not reported: a voter the client cannot look up keeps the id the vote came with
      return undefined;
    });
    const sender = {
      id: vote.voter,
      ...(known?.lid ? { lid: known.lid } : {}),
      ...(known?.phone ? { phone: known.phone } : {}),
    };
    const { chatId, member } = chatOf({
      chatId: isGroup ? vote.chatId : (sender.lid ?? vote.chatId),
      isGroup,
      sender,
    });
    await runs.exclusive(client.name, chatId, member, async () => {
      const run = await runs.live(client.name, chatId, member);
      if (!run?.waiting) return false;
      await run.feed({
        kind: 'vote',
        pollMessageId: vote.pollMessageId,
        selected: vote.selectedOptions,
        at: this.#p.clock.now(),
      });
      return true;
    });
  }

  /** A trigger (command) starting `name` for the sender of `message`. */
  async trigger(client: BotClient, message: Message, name: string, input: unknown): Promise<void> {
    const { runs } = this.#p;
    const definition = runs.definition(name);
    const { chatId, member } = chatOf(message);
    await runs.exclusive(client.name, chatId, member, () =>
      runs.begin(client.name, chatId, member, definition, input).then(() => true),
    );
  }

  async #answer(run: ConversationRun, message: Message): Promise<boolean> {
    if (run.seen(message.id)) return true;
    const { runs, host } = this.#p;
    const policy = runs.policy(run);
    const text = normalize(message.body);
    const cancelWords = (policy.cancelWords ?? DEFAULT_CANCEL).map(normalize);
    if (message.type === 'chat' && cancelWords.includes(text)) {
      await host.send(run.record, `${run.record.id}:cancel`, policy.cancelled ?? 'Cancelled.');
      await runs.stop(run, 'cancelled');
      return true;
    }
    if (message.type === 'chat' && this.#p.isCommand(message.body)) {
      if (policy.onInterrupt === 'end') await runs.stop(run, 'ended');
      return false;
    }
    if (!run.waiting) return true;
    await run.feed(replyOf(message, this.#p.clock.now()));
    return true;
  }

  #keywordTrigger(message: Message): AnyDefinition | undefined {
    if (message.type !== 'chat') return undefined;
    const text = normalize(message.body);
    for (const definition of this.#p.runs.definitions) {
      const trigger = definition.trigger;
      if (!trigger || (message.isGroup && !trigger.groups)) continue;
      if (trigger.keywords?.some((k) => normalize(k) === text)) return definition;
      if (trigger.pattern?.test(message.body)) return definition;
    }
    return undefined;
  }
}
