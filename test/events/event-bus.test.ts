/**
 * The core event bus (src/events/): any plugin reads every client's events from it, as records
 * with ids (what SSE and webhooks deliver) or live (`observe`), without the REST plugin.
 */
import { expect } from 'chai';
import { definePlugin, type WakitErrorEvent } from '../../src/index.js';
import type { BusEvent } from '../../src/events/event-bus.js';
import { EXPOSED_EVENT_NAMES, EVENT_TABLE } from '../../src/events/event-types.js';
import { BOT_ID, linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

const ALICE = '15550001111';

describe('the core event bus (ctx.events)', function () {
  this.timeout(15_000);
  let dir: { dir: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.cleanup());

  it('a plugin subscribes to records of every client: ids one apart, replayable, live observers too', async () => {
    const sdk = simulatorSdk(dir.dir);
    const records: BusEvent[] = [];
    const live: string[] = [];
    const errors: WakitErrorEvent[] = [];
    sdk.on('error', (e) => errors.push(e));
    sdk.use(
      definePlugin({
        name: 'audit',
        setup(ctx) {
          ctx.events.bus.subscribe((event) => {
            if (event.event === 'message') throw new Error('subscriber bug');
          });
          ctx.events.bus.subscribe((event) => records.push(event));
          ctx.events.bus.observe('message', ({ client, args }) => {
            live.push(`${client.name}:${args[0].body}`);
          });
        },
      }),
    );
    await sdk.start();
    await linkedClient(sdk, 'bot');
    const alice = sdk.simulator.phone(ALICE);
    await alice.send(BOT_ID, 'hello bus');
    const until = Date.now() + 3_000;
    while (!records.some((r) => r.event === 'message') && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const message = records.find((r) => r.event === 'message');
    expect(message?.client).to.equal('bot');
    expect((message?.data as { body?: string }).body).to.equal('hello bus');
    expect(live).to.deep.equal(['bot:hello bus']);
    const ids = records.map((r) => Number(r.id));
    expect(ids.every((id, i) => i === 0 || id === ids[i - 1] + 1)).to.equal(true);
    expect(records.map((r) => r.event)).to.include.members(['qr', 'authenticated', 'ready']);
    expect((await sdk.events.since('0')).map((r) => r.id)).to.deep.equal(records.map((r) => r.id));
    // the throwing subscriber reached the sink, once, and did not keep the others from hearing
    expect(errors.map((e) => [e.source, e.event, e.client, e.error.message])).to.deep.equal([
      ['plugin', 'events:message', 'bot', 'subscriber bug'],
    ]);
    await sdk.stop();
  });

  it("a plugin's bus is read-only: no publish, notify, start or close, not even by a cast; the eventBus privilege starts it", async () => {
    const sdk = simulatorSdk(dir.dir);
    let bus: Record<string, unknown> = {};
    let control: { start(options?: { bufferSize?: number }): void } | undefined;
    const tries: string[] = [];
    sdk.use(
      definePlugin({
        name: 'reader',
        setup(ctx) {
          bus = ctx.events.bus;
          // @ts-expect-error: the view has no publish
          void ctx.events.bus.publish;
          for (const member of ['publish', 'notify', 'start', 'close']) {
            const call = bus[member];
            tries.push(`${member}:${typeof call}`);
          }
          try {
            (bus as { publish?: unknown }).publish = () => undefined;
          } catch {
            // not reported: the frozen view refusing the write is what this test checks
            tries.push('assign refused');
          }
        },
      }),
    );
    sdk.use(
      definePlugin({
        name: 'starter',
        privileges: ['eventBus'],
        setup(_ctx, services) {
          control = services.eventBus;
          expect(Object.keys(services.eventBus)).to.deep.equal(['start']);
        },
      }),
    );
    await sdk.start();
    expect(tries).to.deep.equal([
      'publish:undefined',
      'notify:undefined',
      'start:undefined',
      'close:undefined',
      'assign refused',
    ]);
    expect(Object.isFrozen(bus)).to.equal(true);
    expect(Object.keys(bus).sort()).to.deep.equal(
      [
        'compare',
        'fleet',
        'isId',
        'lastId',
        'lastSeq',
        'observe',
        'qr',
        'replayable',
        'since',
        'subscribe',
      ].sort(),
    );
    // what it reads is the SDK's bus: records start with the privileged start, ids match
    control?.start({ bufferSize: 10 });
    await linkedClient(sdk, 'bot');
    await sdk.simulator.phone(ALICE).send(BOT_ID, 'hi');
    const since = bus.since as (after: string) => Promise<BusEvent[]>;
    const until = Date.now() + 3_000;
    while (!(await since('0')).some((r) => r.event === 'message') && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await since('0')).map((r) => r.id)).to.deep.equal(
      (await sdk.events.since('0')).map((r) => r.id),
    );
    expect(bus.lastId).to.equal(sdk.events.lastId);
    await sdk.stop();
  });

  it('declares each event once: the exposed ones are what SSE and webhooks accept', () => {
    expect([...EXPOSED_EVENT_NAMES]).to.deep.equal(
      Object.entries(EVENT_TABLE)
        .filter(([, row]) => row.exposed)
        .map(([name]) => name),
    );
    expect(EXPOSED_EVENT_NAMES).to.not.include('session.leased');
    expect(EVENT_TABLE['message.status']).to.include({ exposed: true, onDemand: true });
  });
});
