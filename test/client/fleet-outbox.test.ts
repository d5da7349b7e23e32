import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Sdk, type WakitConfigInput } from '../../src/index.js';
import { prepareSend } from '../../src/entries/contract.js';
import type { QueuedSend } from '../../src/entries/types.js';
import type { Ownership } from '../../src/cluster/ownership.js';
import type { ClientState } from '../../src/client/types.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const BOT = '15550000001';
const CONTACT = '15550000002';
const CONTACT_ID = `${CONTACT}@c.us`;

/** Client "a" runs on the node whose `runs` holds it; `states` is what the fleet reports. */
function ownership(
  runs: Set<string>,
  states = new Map<string, ClientState>(),
): Ownership & {
  move(client: string, local: boolean): void;
} {
  const listeners = new Set<(client: string, local: boolean) => void>();
  return {
    isLocal: (client) => runs.has(client),
    fleetState: (client) => (runs.has(client) ? undefined : states.get(client)),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    move(client, local) {
      if (local) runs.add(client);
      else runs.delete(client);
      for (const listener of listeners) listener(client, local);
    },
  };
}

/** `promise`, or a failure naming `what` after `ms` (a hung step says which it was). */
function within<T>(what: string, promise: Promise<T>, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function until(check: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a fleet: sends accepted on a node that does not run the client (two SDKs, one Redis)', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let gcs: FakeGcsServer;
  let fleet = 0;
  const cleanups: (() => Promise<void>)[] = [];

  before(async () => {
    [redis, gcs] = await Promise.all([RedisServer.start(), FakeGcsServer.start()]);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  after(async () => {
    await gcs.close();
    await redis.dispose();
  });

  async function node(
    nodeId: string,
    runs: ReturnType<typeof ownership>,
    queue: WakitConfigInput['queue'] = {},
  ): Promise<Sdk> {
    const dir = await tempDir();
    const sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 5 },
        auth: {
          type: 'remote',
          storage: {
            projectId: 'test',
            bucket: 'wakit-fleet',
            path: `fleet${fleet}`,
            apiEndpoint: gcs.url,
          },
          dataPath: dir.dir,
          // a node that moves a client in these tests gives its lease back; short, in case
          lease: { ttlMs: 2_000, renewMs: 500, retryMs: 100 },
        },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10, ...queue },
        cluster: { type: 'redis', url: redis.url, nodeId, keyPrefix: `fleet${fleet}` },
      },
      { logger: pino({ level: 'silent' }), ownership: runs },
    );
    cleanups.push(async () => {
      await sdk.stop({ drainTimeoutMs: 0 });
      await dir.cleanup();
    });
    return sdk;
  }

  /** Node A runs client "a" (linked, READY); node B has it too, but does not run it. */
  async function twoNodes(
    queue: WakitConfigInput['queue'] = {},
    queueOfB: WakitConfigInput['queue'] = queue,
  ) {
    fleet++;
    const onA = ownership(new Set(['a']));
    const onB = ownership(new Set());
    const a = await node('A', onA, queue);
    const b = await node('B', onB, queueOfB);
    a.simulator.phone(CONTACT);
    const owner = a.createClient({ name: 'a' });
    owner.on('qr', (qr) => a.simulator.scan(qr, { phone: BOT }));
    await owner.initialize();
    await owner.waitUntilReady({ timeoutMs: 10_000 });
    const inbox = () => a.simulator.phone(CONTACT).inbox.map((m) => m.body);
    return { a, b, owner, remote: b.createClient({ name: 'a' }), inbox, onA, onB };
  }

  const text = (body: string) => prepareSend('text', { to: CONTACT_ID, text: body });

  for (const [label, queue] of [
    ['pacing off', {}],
    ['pacing on', { minGapMs: 15, jitterMs: 10, memoryWindow: 4 }],
  ] as const) {
    it(`N sends accepted through node B go out once each from node A, in acceptance order (${label})`, async () => {
      const { a, b, owner, remote, inbox } = await twoNodes(queue);
      expect(remote.state).to.equal('STOPPED'); // not run here: its local state says nothing
      const bodies: string[] = [];
      const accepted: QueuedSend[] = [];
      // B accepts while A is sending its own sends and those B accepted before.
      for (let i = 0; i < 40; i++) {
        bodies.push(`b${i}`);
        accepted.push(await remote.enqueue(text(`b${i}`)));
        if (i % 10 === 5) await new Promise((resolve) => setTimeout(resolve, 30));
      }
      await until(() => inbox().length >= bodies.length, 20_000, 'every send out');
      await new Promise((resolve) => setTimeout(resolve, 1_200)); // a safety poll: nothing more
      expect(inbox()).to.deep.equal(bodies);
      const results = await Promise.all(accepted.map((q) => q.result));
      expect(results.map((r) => r.trackingId)).to.deep.equal(accepted.map((q) => q.trackingId));
      expect(results.every((r) => r.id.length > 0)).to.equal(true);
      const id = accepted[3].trackingId;
      expect((await b.sends.get(id))?.status).to.be.oneOf(['sent', 'delivered', 'read']);
      expect((await a.sends.get(id))?.messageId).to.equal(results[3].id);
      expect(owner.info().queue).to.deep.equal({ pending: 0, held: 0, running: 0 });
    });
  }

  it('interleaves sends accepted on the owner and on another node without sending any twice', async () => {
    const { owner, remote, inbox } = await twoNodes({ memoryWindow: 3 });
    const bodies: string[] = [];
    const accepting: Promise<QueuedSend>[] = [];
    for (let i = 0; i < 30; i++) {
      const [client, body] = i % 2 === 0 ? [owner, `own${i}`] : [remote, `far${i}`];
      bodies.push(body);
      accepting.push(client.enqueue(text(body)));
    }
    await Promise.all(accepting);
    await until(() => inbox().length >= bodies.length, 20_000, 'every send out');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect([...inbox()].sort()).to.deep.equal([...bodies].sort());
    // One node's own sends keep their order; so do the other's.
    const sent = inbox();
    expect(sent.filter((b) => b.startsWith('far'))).to.deep.equal(
      bodies.filter((b) => b.startsWith('far')),
    );
    expect(sent.filter((b) => b.startsWith('own'))).to.deep.equal(
      bodies.filter((b) => b.startsWith('own')),
    );
  });

  it('while Redis is down accepts fail with STORAGE_UNAVAILABLE and the owner holds its sends; after, all go out once', async () => {
    const { owner, remote, inbox } = await twoNodes({ minGapMs: 150, jitterMs: 0 });
    const accepted: QueuedSend[] = [];
    for (let i = 0; i < 6; i++) accepted.push(await remote.enqueue(text(`r${i}`)));
    for (let i = 0; i < 6; i++) accepted.push(await owner.enqueue(text(`o${i}`)));
    await until(() => inbox().length >= 1, 5_000, 'the first send out');
    await redis.stop({ hard: true });
    const atStop = inbox().length;
    const started = Date.now();
    for (const client of [owner, remote]) {
      const error = await client.enqueue(text('refused')).then(
        () => undefined,
        (e: unknown) => e as { code: string },
      );
      expect(error?.code).to.equal('STORAGE_UNAVAILABLE');
    }
    expect(Date.now() - started).to.be.below(1_000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    // Held (its outcome cannot be recorded): at most the send in flight at the stop went out.
    expect(inbox().length).to.be.at.most(atStop + 1);
    await redis.restart();
    await Promise.all(accepted.map((q) => q.result));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const sent = inbox();
    expect([...sent].sort()).to.deep.equal(
      [...['r0', 'r1', 'r2', 'r3', 'r4', 'r5'], ...['o0', 'o1', 'o2', 'o3', 'o4', 'o5']].sort(),
    );
    expect(sent).to.not.include('refused');
  });

  it("bounds a client's sends by queue.maxSize across the fleet: QUEUE_FULL on a node that does not run it", async () => {
    const { b, remote, onA } = await twoNodes({ maxSize: 3 });
    onA.move('a', false); // nobody sends: they pile up in the outbox
    const accepted = [];
    for (let i = 0; i < 3; i++) accepted.push(await remote.enqueue(text(`w${i}`)));
    const error = await remote.enqueue(text('one too many')).then(
      () => undefined,
      (e: unknown) => e as { code: string; details?: { maxSize?: number } },
    );
    expect(error?.code).to.equal('QUEUE_FULL');
    expect(error?.details?.maxSize).to.equal(3);
    expect((await b.sends.list({ clients: ['a'], limit: 10 })).items).to.have.length(3);
  });

  it('keys are fleet-wide; a client FAILED on its owner is refused elsewhere; sends wait while nobody runs it', async () => {
    const { b, owner, remote, inbox, onA } = await twoNodes();
    const first = await remote.enqueue(text('once'), { idempotencyKey: 'k-1' });
    const again = await owner.enqueue(text('once'), { idempotencyKey: 'k-1' });
    expect(again.duplicate).to.equal(true);
    expect(again.trackingId).to.equal(first.trackingId);
    await first.result;
    expect(inbox().filter((body) => body === 'once')).to.have.length(1);

    // Nobody runs "a" for a while (failover): B still accepts; the sends wait in the outbox.
    onA.move('a', false);
    const waiting = await remote.enqueue(text('during failover'));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(inbox()).to.not.include('during failover');
    expect((await b.sends.get(waiting.trackingId))?.status).to.equal('queued');
    // A runs it again: recovery pages it in.
    onA.move('a', true);
    await waiting.result;
    expect(inbox().filter((body) => body === 'during failover')).to.have.length(1);

    // A send the owner fails: the follower on B rejects with the error A recorded.
    const doomed = await remote.enqueue(
      prepareSend('text', { to: '15559999999@c.us', text: 'nobody' }),
    );
    const failure = await doomed.result.then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    const recorded = (await b.sends.get(doomed.trackingId))?.error;
    expect(recorded?.code).to.be.a('string');
    expect(failure).to.include({ code: recorded?.code, message: recorded?.message });

    const states = new Map<string, ClientState>([['a', 'FAILED']]);
    const failedFleet = ownership(new Set(), states);
    const c = await node('C', failedFleet);
    const error = await c
      .createClient({ name: 'a' })
      .enqueue(text('refused'))
      .then(
        () => undefined,
        (e: unknown) => e as { code: string },
      );
    expect(error?.code).to.equal('CLIENT_NOT_READY');
  });

  it('a node that stops running a client forgets its waiting sends: the new owner sends them, none is resent when the first runs it again', async () => {
    const { a, b, owner, remote, onA, onB } = await twoNodes({ minGapMs: 150, jitterMs: 0 });
    b.simulator.phone(CONTACT);
    const bodies = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5'];
    const accepted: QueuedSend[] = [];
    for (const body of bodies) accepted.push(await owner.enqueue(text(body)));
    const inboxOf = (sdk: Sdk) => sdk.simulator.phone(CONTACT).inbox.map((m) => m.body);
    await until(() => inboxOf(a).length >= 1, 5_000, 'the first send out from A');
    // The fleet moves "a" to B: A hands off (its waiting sends stay queued in the outbox).
    onA.move('a', false);
    await within('A stops', owner.stop());
    onB.move('a', true);
    await within('B links', remote.initialize());
    await remote.waitUntilReady({ timeoutMs: 10_000 });
    const all = () => [...inboxOf(a), ...inboxOf(b)];
    await until(() => new Set(all()).size >= bodies.length, 15_000, 'every send out');
    // ... and back to A, which must not send what it held before the hand-off.
    onB.move('a', false);
    await within('B stops', remote.stop());
    onA.move('a', true);
    await within('A links again', owner.initialize());
    await owner.waitUntilReady({ timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect([...new Set(all())].sort()).to.deep.equal(bodies);
    // At most the send in flight at the hand-off twice (the at-least-once window), never more.
    expect(all().length).to.be.at.most(bodies.length + 1);
    expect(inboxOf(b).length, 'B sent what A had not').to.be.above(0);
    // Results handed out by A before the hand-off settle from the outbox.
    const results = await within('results', Promise.all(accepted.map((q) => q.result)));
    expect(results.map((r) => r.trackingId)).to.deep.equal(accepted.map((q) => q.trackingId));
  });

  it('results first asked for after a hand-off (sends beyond the memory window too) settle from the outbox', async () => {
    // A sends the first at once, then waits a minute; B, once it runs the client, sends at once.
    const { a, b, owner, remote, onA, onB } = await twoNodes(
      { minGapMs: 60_000, jitterMs: 0, memoryWindow: 2 },
      { memoryWindow: 2 },
    );
    b.simulator.phone(CONTACT);
    const bodies = ['w0', 'w1', 'w2', 'w3', 'w4'];
    const accepted: QueuedSend[] = [];
    for (const body of bodies) accepted.push(await owner.enqueue(text(body)));
    // The rest wait on A: two in memory, two paged out (beyond the window).
    const inboxOf = (sdk: Sdk) => sdk.simulator.phone(CONTACT).inbox.map((m) => m.body);
    await until(() => inboxOf(a).length === 1, 5_000, 'the first send out from A');
    onA.move('a', false);
    await within('A stops', owner.stop());
    onB.move('a', true);
    await within('B links', remote.initialize());
    await remote.waitUntilReady({ timeoutMs: 10_000 });
    // No result was asked for before the hand-off: each, asked now, ends as the outbox says.
    const results = await within('results', Promise.all(accepted.map((q) => q.result)), 10_000);
    expect(results.map((r) => r.trackingId)).to.deep.equal(accepted.map((q) => q.trackingId));
    expect(results.every((r) => r.id !== '')).to.equal(true);
  });
});
