/**
 * Two nodes of a fleet, in one process: two conversation services, each on its own connection to
 * one Redis conversation store (a real redis-server), each with its own client object for the
 * same client name (READY on both, as during a hand-over). What the fleet relies on, proved at the
 * journal: a timer both nodes fire at once is journaled once (the second append at the journal's
 * next index fails), and a node whose run in memory another node moved on replays it instead of
 * losing the person's answer.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import type { BotClient } from '../../src/client/bot-client.js';
import type { Message } from '../../src/client/inbound/message.js';
import { RedisConversationStore } from '../../src/cluster/conversations/redis-conversation-store.js';
import { createRedis } from '../../src/cluster/redis-connection.js';
import { parseConfig } from '../../src/config/index.js';
import { ConversationService } from '../../src/conversations/conversation-service.js';
import { defineConversation } from '../../src/conversations/define-conversation.js';
import { VirtualClock } from '../../src/kernel/virtual-clock.js';
import { RedisServer } from '../helpers/redis-server.js';

const PERSON = '123456789012345@lid';

/** What a node's client was asked to send: the idempotency key and the text. */
interface Sent {
  node: string;
  key: string;
  text: string;
}

const ask = defineConversation({
  name: 'ask',
  timeout: { seconds: 60, reminder: 'Still there?', expired: 'Gone.' },
  async run(conv) {
    const first = await conv.text('First?');
    const second = await conv.text('Second?');
    await conv.say(`Got ${first} and ${second}.`);
  },
});

function fakeClient(node: string, sent: Sent[]): BotClient {
  return {
    name: 'bot',
    state: 'READY',
    resolveContact: () => Promise.resolve({}),
    on: () => undefined,
    enqueue: (content: unknown, options: { idempotencyKey: string }) => {
      const text = JSON.stringify(content);
      sent.push({ node, key: options.idempotencyKey, text });
      return Promise.resolve({ trackingId: options.idempotencyKey, result: Promise.resolve() });
    },
  } as unknown as BotClient;
}

function message(id: string, body: string): Message {
  return {
    id,
    body,
    type: 'chat',
    chatId: PERSON,
    isGroup: false,
    fromMe: false,
    isStatus: false,
    broadcast: false,
    isChannel: false,
    sender: { id: PERSON, lid: PERSON },
  } as unknown as Message;
}

describe('conversations: two nodes on one Redis store (real redis-server)', function () {
  this.timeout(20_000);
  let redis: RedisServer;
  const connections: Redis[] = [];
  let prefix = 0;
  /** Failures the services reported (none expected). */
  const reported: unknown[] = [];
  afterEach(() => {
    expect(reported.splice(0), 'nothing reported').to.deep.equal([]);
  });

  before(async () => {
    redis = await RedisServer.start();
  });
  after(async () => {
    for (const conn of connections) conn.disconnect();
    await redis.dispose();
  });

  async function nodes(clock: VirtualClock, sent: Sent[]) {
    const keyPrefix = `two${++prefix}`;
    const config = parseConfig({ auth: { type: 'local' } });
    const make = async (node: string) => {
      const conn = createRedis({ url: redis.url, name: `test:${node}` });
      connections.push(conn);
      if (conn.status !== 'ready') await new Promise((resolve) => conn.once('ready', resolve));
      const store = new RedisConversationStore({
        redis: conn,
        keyPrefix,
        now: () => clock.now(),
      });
      const client = fakeClient(node, sent);
      const service = new ConversationService({
        config,
        baseDir: '.',
        clock,
        logger: pino({ level: 'silent' }),
        clients: { get: () => client },
        sentMessageId: () => Promise.resolve(null),
        report: ({ error }) => reported.push(error),
        isCommand: () => false,
        store,
      });
      service.define(ask as never);
      return { service, store, client };
    };
    return [await make('a'), await make('b')] as const;
  }

  it('a timer both nodes fire at once: one reminder step journaled, one reminder key', async () => {
    const clock = new VirtualClock();
    const sent: Sent[] = [];
    const [a, b] = await nodes(clock, sent);
    const started = await a.service.start('bot', PERSON, 'ask');
    // both nodes arm the timer from the store (each as when the client became READY there)
    await a.service.resumeAll('bot');
    await b.service.resumeAll('bot');
    await clock.advance(60_000);
    // the firing does Redis I/O: wait until one node journaled it (a deadline, not a sleep) ...
    const deadline = Date.now() + 5_000;
    while (!(await a.store.steps(started.id)).some((s) => s.k === 'timer')) {
      expect(Date.now(), 'a node fired the reminder').to.be.below(deadline);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // ... then let each node's lane of the chat drain: a start queues behind the firing there
    for (const node of [a, b]) {
      const refused = await node.service.start('bot', PERSON, 'ask').catch((e: unknown) => e);
      expect(refused).to.have.property('code', 'CONVERSATION_ACTIVE');
    }
    const steps = await a.store.steps(started.id);
    expect(
      steps.filter((s) => s.k === 'timer'),
      'the reminder journaled once',
    ).to.have.length(1);
    const reminders = sent.filter((s) => s.text.includes('Still there?'));
    expect(reminders.length, 'both nodes fired').to.be.at.least(1);
    expect(new Set(reminders.map((s) => s.key)).size, 'under one idempotency key').to.equal(1);
    const info = await b.service.get(started.id);
    expect(info.timer?.action, 'then the expiry').to.equal('expire');
    await clock.advance(60_000);
    while ((await a.service.list()).length > 0) {
      expect(Date.now(), 'a node fired the expiry').to.be.below(deadline + 5_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const gone = sent.filter((s) => s.text.includes('Gone.'));
    expect(new Set(gone.map((s) => s.key)).size).to.equal(1);
    expect(await a.service.list(), 'expired once, ended').to.deep.equal([]);
    await a.service.close();
    await b.service.close();
  });

  it('a node whose run another node moved on replays it: the answer is not lost', async () => {
    const clock = new VirtualClock();
    const sent: Sent[] = [];
    const [a, b] = await nodes(clock, sent);
    await a.service.start('bot', PERSON, 'ask');
    // a ran it (it is in a's memory); the client moves to b, where the person answers
    expect(await b.service.onMessage(b.client, message('m1', 'one'))).to.equal(true);
    expect(sent.at(-1)).to.include({ node: 'b' }).and.property('text').that.contains('Second?');
    // back on a: its run in memory waits at the first question, the journal is past it
    expect(await a.service.onMessage(a.client, message('m2', 'two'))).to.equal(true);
    expect(sent.at(-1))
      .to.include({ node: 'a' })
      .and.property('text')
      .that.contains('Got one and two.');
    expect(await a.service.list()).to.deep.equal([]);
    const texts = sent.map((s) => s.key);
    expect(new Set(texts).size, 'no key sent twice').to.equal(texts.length);
    await a.service.close();
    await b.service.close();
  });
});
