/**
 * A dialog test kit: one person's chat with the bot on the simulator. Send, expect the bot's next
 * reply, vote on its last poll, move a virtual clock: no sleeps (docs/conversations.md, Testing).
 */
import { WakitError } from '../errors/index.js';
import type { VirtualClock } from '../kernel/virtual-clock.js';
import { TYPING_OPTION_MAX_MS } from '../client/send/typing.js';
import type { Sdk } from '../sdk.js';
import type { SimInboxMessage } from '../engines/simulator/types.js';

export interface TestChatOptions {
  /** The person's pushname. */
  pushname?: string;
  /** The bot's client name; default the only (or first) client. */
  client?: string;
  /** The clock the test SDK was made with (`createTestSdk(file, { clock })`), for `advance`. */
  clock?: VirtualClock;
  /** How long `expectReply` waits for the bot (real time; default 5 s). */
  timeoutMs?: number;
}

export interface TestChat {
  /** The person's chat id (`<digits>@c.us`). */
  readonly id: string;
  /** Sends a text (or simulator content) to the bot. */
  send(
    content: Parameters<ReturnType<Sdk['simulator']['phone']>['send']>[1],
  ): Promise<{ id: string }>;
  /** The bot's next reply not yet taken; `match` checks it (a string: exact text). */
  expectReply(
    match?: string | RegExp | ((m: SimInboxMessage) => boolean),
  ): Promise<SimInboxMessage>;
  /** Asserts the bot has sent nothing new, once every message and send in flight settled. */
  expectNoReply(): Promise<void>;
  /**
   * A person answers as the business, from the account's own phone (or WhatsApp Web), in this
   * chat: the bot sees it as its own message it did not send (handoff, docs/handoff.md). It is not
   * one of the bot's `replies`.
   */
  fromPhone(
    content: Parameters<ReturnType<Sdk['simulator']['phone']>['send']>[1],
  ): Promise<{ id: string }>;
  /** Votes on the bot's last poll. */
  vote(...options: string[]): Promise<void>;
  /** Lets the bot finish what it does, then moves the virtual clock on (timers fire on the way). */
  advance(ms: number): Promise<void>;
  /** Every message the bot sent in this chat, oldest first. */
  readonly replies: readonly SimInboxMessage[];
}

export function testChat(sdk: Sdk, number: string, options: TestChatOptions = {}): TestChat {
  const phone = sdk.simulator.phone(number, options.pushname ? { pushname: options.pushname } : {});
  const clientName = options.client ?? sdk.clients[0]?.name;
  if (!clientName) throw new WakitError('CLIENT_NOT_FOUND', 'testChat: the SDK has no client');
  const bot = (): string => (sdk.client(clientName).info().me?.id ?? '').replace('@c.us', '');
  const timeoutMs = options.timeoutMs ?? 5_000;
  /** What the account's phone wrote here (fromPhone): a person's words, not the bot's. */
  const byPerson = new Set<string>();
  const fromBot = (m: SimInboxMessage): boolean =>
    !m.isGroup && m.author === `${bot()}@c.us` && !byPerson.has(m.id);
  const taken = new Set<string>();
  const mine = (): SimInboxMessage[] => phone.inbox.filter(fromBot);
  const settle = async (): Promise<void> => {
    // every message in the pipeline handled, every send out of the queue
    await new Promise((resolve) => setImmediate(resolve));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await sdk.plugins.idle();
      const { pending, running } = sdk.client(clientName).info().queue;
      if (pending + running === 0) break;
      if (Date.now() > deadline)
        throw new WakitError('TIMEOUT', 'testChat: the queue did not drain');
      // the queue settles on its own events: yield until it did (bounded by the deadline)
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await sdk.plugins.idle();
  };
  /** The bot's "typing…" / "recording…" shown to this person, and how many of them time passed. */
  const typing = () =>
    phone.actions.filter(
      (a) => a.type === 'chat-state' && a.state !== 'paused' && a.by.replace(/@.*/, '') === bot(),
    );
  let typed = 0;
  /**
   * With a virtual clock, a reply sent with `typing` waits on that clock: while `waiting` runs,
   * each "typing…" the bot shows lets the time to the next timer pass (at most the longest typing
   * a send can ask for), as it would in real time. Timers due earlier fire first, as they would.
   */
  const passTyping = (clock: VirtualClock, waiting: Promise<unknown>): void => {
    let done = false;
    waiting.then(
      () => (done = true),
      () => (done = true),
    );
    void (async () => {
      while (!done) {
        const due = typing().length > typed ? clock.nextDueIn() : undefined;
        if (due !== undefined && due <= TYPING_OPTION_MAX_MS) {
          typed += 1;
          await clock.advance(due);
        }
        // the bot shows typing, then sets its timer: yield until it did (bounded by `waiting`)
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
  };
  const matches = (m: SimInboxMessage, match: Parameters<TestChat['expectReply']>[0]): boolean =>
    match === undefined ||
    (typeof match === 'string'
      ? m.body === match
      : match instanceof RegExp
        ? match.test(m.body)
        : match(m));
  return {
    id: phone.id,
    send: (content) => phone.send(`${bot()}@c.us`, content),
    async fromPhone(content) {
      const own = sdk.simulator.linkedPhone(clientName);
      if (!own)
        throw new WakitError('CLIENT_NOT_READY', 'testChat.fromPhone: the bot is not linked');
      const sent = await own.send(phone.id, content);
      byPerson.add(sent.id);
      await settle();
      return sent;
    },
    async expectReply(match) {
      const waiting = phone.waitForMessage((m) => fromBot(m) && !taken.has(m.id), timeoutMs);
      if (options.clock) passTyping(options.clock, waiting);
      const next = await waiting;
      typed = typing().length;
      taken.add(next.id);
      if (!matches(next, match)) {
        throw new WakitError(
          'EXPECTATION_FAILED',
          `expected reply ${String(match)}, got ${JSON.stringify(next.body)}`,
          {
            details: { got: next.body },
          },
        );
      }
      return next;
    },
    async expectNoReply() {
      await settle();
      const extra = mine().filter((m) => !taken.has(m.id));
      if (extra.length > 0) {
        throw new WakitError(
          'EXPECTATION_FAILED',
          `expected no reply, got ${JSON.stringify(extra.map((m) => m.body))}`,
        );
      }
    },
    async vote(...selected) {
      const poll = [...mine()].reverse().find((m) => m.type === 'poll_creation');
      if (!poll) throw new WakitError('EXPECTATION_FAILED', 'testChat.vote: the bot sent no poll');
      await phone.vote(poll.id, selected);
    },
    async advance(ms) {
      if (!options.clock)
        throw new WakitError(
          'VALIDATION_FAILED',
          'testChat.advance needs options.clock (a VirtualClock)',
        );
      // what the last message started (its steps, their timers) first, then the time
      await settle();
      await options.clock.advance(ms);
      await settle();
    },
    get replies() {
      return mine();
    },
  };
}
