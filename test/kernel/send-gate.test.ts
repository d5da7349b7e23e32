import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Sdk } from '../../src/index.js';
import {
  CLIENT_NAME,
  SEND_GATE,
  inject,
  injectable,
  type GateAnswer,
  type SendGate,
  type ServiceRegistry,
} from '../../src/kernel/public-tokens.js';
import { linkedClient, tempDir } from '../helpers/sdk-fixtures.js';

const ALICE = '15550001111';
const BOB = '15550002222';

type GatedSend = Parameters<SendGate['check']>[0];

/** What every RecordingGate was asked, and which were disposed. */
const asked: { gate: RecordingGate; client: string; send: GatedSend }[] = [];
const disposed: string[] = [];

/** A per-client gate class, as the send governor would register: it lets every send go. */
@injectable()
class RecordingGate implements SendGate {
  constructor(@inject(CLIENT_NAME) private readonly client: string) {}

  check(send: GatedSend): Promise<GateAnswer> {
    asked.push({ gate: this, client: this.client, send });
    return Promise.resolve('go');
  }

  dispose(): void {
    disposed.push(this.client);
  }
}

describe('kernel: the per-client send gate (SEND_GATE)', () => {
  let sdk: Sdk | undefined;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  async function start(services: (s: ServiceRegistry) => void): Promise<Sdk> {
    const temp = await tempDir('wakit-gate-');
    cleanup = temp.cleanup;
    sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 5 },
        auth: { type: 'local', dataPath: temp.dir },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, persistence: 'memory' },
      },
      { logger: pino({ level: 'silent' }), services },
    );
    return sdk;
  }

  beforeEach(() => {
    asked.length = 0;
    disposed.length = 0;
  });

  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 0 });
    sdk = undefined;
    await cleanup();
  });

  it('asks the client’s own gate before each send goes out', async () => {
    const kit = await start((s) => s.register(SEND_GATE, { useClass: RecordingGate }));
    const a = await linkedClient(kit, 'a', '15550000001');
    const b = await linkedClient(kit, 'b', '15550000002');
    kit.simulator.phone(ALICE);
    await a.sendTextMessage({ to: ALICE, text: 'from a' });
    await b.sendTextMessage({ to: ALICE, text: 'from b' });
    await a.sendTextMessage({ to: ALICE, text: 'from a again' });

    expect(asked.map(({ client, send }) => [client, send.chatId, send.priority])).to.deep.equal([
      ['a', `${ALICE}@c.us`, 'normal'],
      ['b', `${ALICE}@c.us`, 'normal'],
      ['a', `${ALICE}@c.us`, 'normal'],
    ]);
    // one gate per client: both sends of `a` asked the same one, `b` its own
    expect(asked[0].gate).to.equal(asked[2].gate);
    expect(asked[1].gate).not.to.equal(asked[0].gate);
  });

  it('a send the gate defers waits until its due time, and the sends after it go first', async () => {
    let deferredOnce = false;
    const gate: SendGate = {
      check(send, now) {
        if (send.chatId === `${ALICE}@c.us` && !deferredOnce) {
          deferredOnce = true;
          return Promise.resolve({ dueAt: now + 300, budget: 'test budget' });
        }
        return Promise.resolve('go');
      },
    };
    const kit = await start((s) => s.register(SEND_GATE, { useValue: gate }));
    const client = await linkedClient(kit, 'bot');
    const alice = kit.simulator.phone(ALICE);
    const bob = kit.simulator.phone(BOB);
    const order: string[] = [];
    const started = Date.now();
    const toAlice = client
      .sendTextMessage({ to: ALICE, text: 'deferred' })
      .then(() => order.push(`alice after ${Date.now() - started} ms`));
    const toBob = client
      .sendTextMessage({ to: BOB, text: 'goes first' })
      .then(() => order.push('bob'));
    await Promise.all([toAlice, toBob]);

    expect(order[0]).to.equal('bob');
    expect(Number(/after (\d+) ms/.exec(order[1])?.[1])).to.be.at.least(290);
    expect(alice.inbox.map((m) => m.body)).to.deep.equal(['deferred']);
    expect(bob.inbox.map((m) => m.body)).to.deep.equal(['goes first']);
  });

  it('without a registration every send goes (the open gate)', async () => {
    const kit = await start(() => undefined);
    const client = await linkedClient(kit, 'bot');
    const alice = kit.simulator.phone(ALICE);
    await client.sendTextMessage({ to: ALICE, text: 'hello' });
    expect(alice.inbox.map((m) => m.body)).to.deep.equal(['hello']);
  });

  it('a client’s gate is disposed with its child container when the client is removed', async () => {
    const kit = await start((s) => s.register(SEND_GATE, { useClass: RecordingGate }));
    await kit.start();
    await linkedClient(kit, 'a', '15550000001');
    await linkedClient(kit, 'b', '15550000002');
    await kit.removeClient('b');
    expect(disposed).to.deep.equal(['b']);
    await kit.stop();
    expect(disposed).to.deep.equal(['b', 'a']);
  });
});
