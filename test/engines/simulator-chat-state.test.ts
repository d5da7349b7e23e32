// Others' chat states reach a linked bot on the simulator as the `chat.state` client event (the
// turns' typing signal, docs/conversations.md): a person typing in a private chat, a member
// recording in a group; the bot's own presence is not reported back to it.
import { expect } from 'chai';
import type { ChatStateUpdate } from '../../src/engines/ports/presence.js';
import { BOT_ID, linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

const ALICE = '15550001111';
const BOB = '15550002222';
const GROUP = '120363000000000043@g.us';

describe('simulator: others typing reach the bot as chat.state', function () {
  this.timeout(10_000);

  it('private and group chat states, in order; none for its own', async () => {
    const { dir, cleanup } = await tempDir();
    const sdk = simulatorSdk(dir);
    try {
      const alice = sdk.simulator.phone(ALICE);
      const bob = sdk.simulator.phone(BOB);
      const client = await linkedClient(sdk, 'bot');
      sdk.simulator.group({ id: GROUP, members: [ALICE, BOB, BOT_ID] });
      const seen: ChatStateUpdate[] = [];
      client.on('chat.state', (update) => seen.push(update));
      await alice.setChatState(BOT_ID, 'typing');
      await alice.setChatState(BOT_ID, 'paused');
      await bob.setChatState(GROUP, 'recording');
      await client.presence.send(`${ALICE}@c.us`, 'typing');
      expect(seen.map((u) => [u.chatId, u.by, u.state])).to.deep.equal([
        [`${ALICE}@c.us`, `${ALICE}@c.us`, 'typing'],
        [`${ALICE}@c.us`, `${ALICE}@c.us`, 'paused'],
        [GROUP, `${BOB}@c.us`, 'recording'],
      ]);
    } finally {
      await sdk.stop();
      await cleanup();
    }
  });
});
