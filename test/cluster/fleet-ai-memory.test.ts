// The ai plugin's memory in a fleet (docs/ai.md "Memory"): two real nodes (each its own SDK and
// simulator network) on one real redis-server, the chat state in the Redis conversation store
// (`conversations.store: auto`). A turn answered on one node is in the model's memory when the
// other node answers the next turn, after the first node went away and the client moved.
import { expect } from 'chai';
import { createAiPlugin } from '../../plugins/ai/index.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import { fakeModel, type FakeModel } from '../plugins/ai/fake-model.js';
import { eventually, fleetHarness, readyClients, type FleetHarness } from './fleet-harness.js';

const PERSON = '15550003333';
const config = { queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 } };

describe('cluster: the ai plugin remembers a chat across a failover', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let gcs: FakeGcsServer;
  let fleet: FleetHarness;
  let model: FakeModel;

  before(async () => {
    redis = await RedisServer.start();
    gcs = await FakeGcsServer.start();
    model = await fakeModel();
  });
  afterEach(async () => fleet?.dispose());
  after(async () => {
    await model?.close();
    await gcs?.close();
    await redis?.dispose();
  });

  it('a turn answered on one node is in the memory of the next turn on the other', async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const ai = (): [ReturnType<typeof createAiPlugin>, unknown] => [
      createAiPlugin(),
      { baseURL: model.baseURL, model: 'fake' },
    ];
    const a = await fleet.start({ nodeId: 'ai-a', clients: ['bot'], config, plugins: [ai()] });
    await eventually('bot READY on ai-a', () => readyClients(a).includes('bot'));
    const b = await fleet.start({ nodeId: 'ai-b', clients: ['bot'], config, plugins: [ai()] });
    model.script.push({ text: 'Hello Ana! Table for two at 8, noted.' });
    const onA = a.simulator.phone(PERSON);
    await onA.send(a.simulator.linkedPhone('bot')!.id, 'Hi, I am Ana. A table for two at 8?');
    await onA.waitForMessage((m) => m.body.startsWith('Hello Ana'), 10_000);
    // ai-a goes away: ai-b takes the client over from its saved session
    await a.stop({ drainTimeoutMs: 0 });
    await eventually('bot READY on ai-b', () => readyClients(b).includes('bot'), 20_000);
    model.script.push({ text: 'Your table for two is at 8, Ana.' });
    const onB = b.simulator.phone(PERSON);
    await onB.send(b.simulator.linkedPhone('bot')!.id, 'What time was my table again?');
    await onB.waitForMessage((m) => m.body === 'Your table for two is at 8, Ana.', 10_000);
    expect(model.requests).to.have.length(2);
    const second = model.requests[1].messages.map((m) => [m.role, m.content]);
    expect(second.slice(1)).to.deep.equal([
      ['user', 'Hi, I am Ana. A table for two at 8?'],
      ['assistant', 'Hello Ana! Table for two at 8, noted.'],
      ['user', 'What time was my table again?'],
    ]);
  });
});
