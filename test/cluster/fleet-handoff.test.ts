// Handoff in a fleet (docs/handoff.md "In a fleet"): two real nodes (each its own SDK and simulator
// network) on one real redis-server. A mode set on one node is read on the other (SDK both ways);
// the automatic silence deadline fires once in the fleet, on the node that owns the client, also
// when the client moved to the other node before its deadline.
import { expect } from 'chai';
import type { Sdk } from '../../src/index.js';
import type { ChatModeChange } from '../../src/entries/types.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import { eventually, fleetHarness, readyClients, type FleetHarness } from './fleet-harness.js';

const PERSON = '15550001111';
const OTHER = '15550002222';
const RESUME = 'The bot is back.';
// 0.05 minutes: a 3 s silence, so the deadline fires in real time
const config = {
  handoff: { auto: true, silenceMinutes: 0.05, resumeMessage: RESUME },
  queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
};

describe('cluster: handoff modes shared in a fleet', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let gcs: FakeGcsServer;
  let fleet: FleetHarness;

  before(async () => {
    redis = await RedisServer.start();
    gcs = await FakeGcsServer.start();
  });
  afterEach(async () => fleet?.dispose());
  after(async () => {
    await gcs?.close();
    await redis?.dispose();
  });

  /** Every chat.mode change seen on `sdk`'s clients, with the node. */
  function follow(sdk: Sdk, node: string, changes: (ChatModeChange & { node: string })[]): void {
    sdk.onClient((client) => client.on('chat.mode', (change) => changes.push({ ...change, node })));
  }

  async function twoNodes(changes: (ChatModeChange & { node: string })[]) {
    fleet = fleetHarness(redis.url, gcs.url);
    const a = await fleet.start({ nodeId: 'hand-a', clients: ['bot'], config });
    follow(a, 'hand-a', changes);
    await eventually('bot READY on hand-a', () => readyClients(a).includes('bot'));
    const b = await fleet.start({ nodeId: 'hand-b', clients: ['bot'], config });
    follow(b, 'hand-b', changes);
    return { a, b };
  }

  const resumes = (sdk: Sdk, number: string): number =>
    sdk.simulator.phone(number).inbox.filter((m) => m.body === RESUME).length;

  it('set on one node, read on the other; the silence deadline fires once, on the owner', async () => {
    const changes: (ChatModeChange & { node: string })[] = [];
    const { a, b } = await twoNodes(changes);
    const person = a.simulator.phone(PERSON);
    // a person answers from the account's phone on hand-a (the client's node)
    await a.simulator.linkedPhone('bot')!.send(person.id, 'Sam here, from the shop.');
    await eventually(
      'human on hand-a',
      async () => (await a.chats.mode('bot', PERSON)).mode === 'human',
    );
    const onA = await a.chats.mode('bot', PERSON);
    expect(onA).to.include({ mode: 'human', by: 'phone' });
    expect(await b.chats.mode('bot', PERSON)).to.deep.equal(onA);
    // set on hand-b (not the client's node), read on hand-a
    const closed = await b.chats.setMode('bot', OTHER, 'closed');
    expect(closed).to.include({ mode: 'closed', by: 'sdk' });
    expect(await a.chats.mode('bot', `${OTHER}@c.us`)).to.deep.equal(closed);
    expect((await a.chats.modes('bot')).map((m) => m.mode).sort()).to.deep.equal([
      'closed',
      'human',
    ]);
    // the deadline: back to bot once, by silence, on hand-a; the resume message sent once
    await eventually('back to bot', async () => (await b.chats.mode('bot', PERSON)).mode === 'bot');
    await eventually('the resume message', () => resumes(a, PERSON) === 1);
    // well past the deadline: nothing more anywhere
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const silence = changes.filter((c) => c.by === 'silence');
    expect(silence.map((c) => [c.node, c.mode])).to.deep.equal([['hand-a', 'bot']]);
    expect(resumes(a, PERSON)).to.equal(1);
    expect(resumes(b, PERSON)).to.equal(0);
    expect((await a.chats.mode('bot', `${OTHER}@c.us`)).mode).to.equal('closed');
  });

  it('the client moves to the other node before the deadline: it fires there, once', async () => {
    const changes: (ChatModeChange & { node: string })[] = [];
    const { a, b } = await twoNodes(changes);
    const person = a.simulator.phone(PERSON);
    b.simulator.phone(PERSON);
    await a.simulator.linkedPhone('bot')!.send(person.id, 'Sam here, from the shop.');
    await eventually('human', async () => (await b.chats.mode('bot', PERSON)).mode === 'human');
    // hand-a goes away before the deadline: hand-b takes the client over
    await a.stop({ drainTimeoutMs: 0 });
    await eventually('bot READY on hand-b', () => readyClients(b).includes('bot'), 20_000);
    await eventually(
      'back to bot on hand-b',
      async () => (await b.chats.mode('bot', PERSON)).mode === 'bot',
    );
    await eventually('the resume message on hand-b', () => resumes(b, PERSON) === 1);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const silence = changes.filter((c) => c.by === 'silence');
    expect(silence.map((c) => [c.node, c.mode])).to.deep.equal([['hand-b', 'bot']]);
    expect(resumes(a, PERSON) + resumes(b, PERSON)).to.equal(1);
  });
});
