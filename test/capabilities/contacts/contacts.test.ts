/**
 * Contacts through the SDK on the simulator: who the account knows, look-ups by number, `@c.us`
 * and `@lid`, registered numbers, profile pictures and their privacy, blocking.
 */
import { expect } from 'chai';
import type { BotClient, Message, Sdk } from '../../../src/index.js';
import {
  BOT_ID,
  BOT_PHONE,
  linkedClient,
  simulatorSdk,
  tempDir,
} from '../../helpers/sdk-fixtures.js';
import { rejection } from '../../helpers/rejection.js';

const ALICE = '15550001111';
const ALICE_ID = `${ALICE}@c.us`;
const BOB = '15550002222';
const BOB_ID = `${BOB}@c.us`;
const LIA = '15550005555';
const LIA_LID = '123456789012345@lid';
const GROUP = '120363000000000001@g.us';

describe('contacts (SDK on the simulator)', () => {
  let sdk: Sdk;
  let client: BotClient;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const dir = await tempDir('wakit-contacts-');
    cleanup = dir.cleanup;
    sdk = simulatorSdk(dir.dir);
    client = await linkedClient(sdk, 'bot');
  });

  afterEach(async () => {
    await sdk.stop({ drainTimeoutMs: 100 });
    await cleanup();
  });

  function nextMessage(): Promise<Message> {
    return new Promise((resolve) => client.once('message', resolve));
  }

  it('getContacts: saved contacts and chat partners, by id, LID users by LID', async () => {
    sdk.simulator.phone(ALICE, { pushname: 'Alice' });
    const bob = sdk.simulator.phone(BOB, { pushname: 'Bob' });
    const lia = sdk.simulator.phone(LIA, { lidAddressed: true, lid: '123456789012345' });
    sdk.simulator.phone('15550009999'); // on WhatsApp, but unknown to the bot
    const me = sdk.simulator.linkedPhone('bot')!;
    me.addContact(ALICE, 'Alice Work');
    let arrived = nextMessage();
    await bob.send(BOT_ID, 'hello');
    await arrived;
    arrived = nextMessage();
    await lia.send(BOT_ID, 'hi');
    await arrived;
    expect(await client.contacts.list()).to.deep.equal([
      {
        id: LIA_LID,
        lid: LIA_LID,
        pushname: '+15550005555',
        isMyContact: false,
        isBlocked: false,
        isBusiness: false,
      },
      {
        id: ALICE_ID,
        number: ALICE,
        lid: sdk.simulator.phone(ALICE).lid,
        name: 'Alice Work',
        pushname: 'Alice',
        isMyContact: true,
        isBlocked: false,
        isBusiness: false,
      },
      {
        id: BOB_ID,
        number: BOB,
        lid: bob.lid,
        pushname: 'Bob',
        isMyContact: false,
        isBlocked: false,
        isBusiness: false,
      },
    ]);
  });

  it('getContact by number, @c.us and @lid; a LID user shows their number once saved', async () => {
    sdk.simulator.phone(LIA, { lidAddressed: true, lid: '123456789012345', pushname: 'Lia' });
    const hidden = await client.contacts.get(LIA_LID);
    expect(hidden).to.include({ id: LIA_LID, lid: LIA_LID, pushname: 'Lia', isMyContact: false });
    expect(hidden).to.not.have.property('number');
    sdk.simulator.linkedPhone('bot')!.addContact(LIA, 'Lia');
    const saved = await client.contacts.get(LIA_LID);
    expect(saved).to.include({ id: `${LIA}@c.us`, number: LIA, name: 'Lia', isMyContact: true });
    expect(await client.contacts.get(`+1 555 000 5555`)).to.deep.equal(saved);
    expect((await rejection(client.contacts.get('19990009999'))).code).to.equal('CHAT_NOT_FOUND');
    expect((await rejection(client.contacts.get(GROUP))).code).to.equal('INVALID_CHAT_ID');
  });

  it('isRegistered and getNumberId know which numbers are on WhatsApp', async () => {
    sdk.simulator.phone(ALICE);
    expect(await client.contacts.isRegistered('+1 555 000 1111')).to.equal(true);
    expect(await client.contacts.getNumberId(ALICE)).to.equal(ALICE_ID);
    expect(await client.contacts.getNumberId(`${ALICE}@c.us`)).to.equal(ALICE_ID);
    expect(await client.contacts.isRegistered('19990009999')).to.equal(false);
    expect(await client.contacts.getNumberId('19990009999')).to.equal(null);
    expect((await rejection(client.contacts.getNumberId(LIA_LID))).code).to.equal(
      'INVALID_CHAT_ID',
    );
    expect((await rejection(client.contacts.isRegistered('12'))).code).to.equal('INVALID_CHAT_ID');
  });

  it('profile pictures follow the owner’s privacy setting', async () => {
    const alice = sdk.simulator.phone(ALICE);
    const bob = sdk.simulator.phone(BOB);
    const carol = sdk.simulator.phone('15550003333');
    alice.setProfilePicture('https://pps.example/alice.jpg');
    bob.setProfilePicture('https://pps.example/bob.jpg', { visibleTo: 'contacts' });
    carol.setProfilePicture('https://pps.example/carol.jpg', { visibleTo: 'nobody' });
    expect(await client.contacts.getProfilePictureUrl(ALICE)).to.equal(
      'https://pps.example/alice.jpg',
    );
    expect(await client.contacts.getProfilePictureUrl(alice.lid)).to.equal(
      'https://pps.example/alice.jpg',
    );
    expect(await client.contacts.getProfilePictureUrl(BOB_ID)).to.equal(null);
    bob.addContact(BOT_PHONE); // Bob saves the bot: it may see his picture now
    expect(await client.contacts.getProfilePictureUrl(BOB_ID)).to.equal(
      'https://pps.example/bob.jpg',
    );
    expect(await client.contacts.getProfilePictureUrl('15550003333')).to.equal(null);
    expect(await client.contacts.getProfilePictureUrl('15550004444')).to.equal(null); // no such user
    sdk.simulator.group({ id: GROUP, members: [BOT_PHONE, ALICE] });
    expect(await client.contacts.getProfilePictureUrl(GROUP)).to.equal(null);
  });

  it('a blocked contact’s messages do not reach the bot, group messages still do', async () => {
    const alice = sdk.simulator.phone(ALICE);
    sdk.simulator.group({ id: GROUP, members: [BOT_PHONE, ALICE] });
    const seen: string[] = [];
    client.on('message', (m) => seen.push(m.body));
    await client.contacts.block(ALICE);
    expect(await client.contacts.get(ALICE)).to.include({ isBlocked: true });
    expect((await client.contacts.list()).map((c) => [c.id, c.isBlocked])).to.deep.equal([
      [ALICE_ID, true],
    ]);
    await alice.send(BOT_ID, 'blocked text');
    const inGroup = nextMessage();
    await alice.send(GROUP, 'group text');
    await inGroup;
    expect(seen).to.deep.equal(['group text']);
    expect((await rejection(client.chats.get(ALICE))).code).to.equal('CHAT_NOT_FOUND');
    await client.contacts.unblock(alice.lid);
    expect(await client.contacts.get(ALICE)).to.include({ isBlocked: false });
    const after = nextMessage();
    await alice.send(BOT_ID, 'after unblock');
    expect((await after).body).to.equal('after unblock');
    expect((await rejection(client.contacts.block('19990009999'))).code).to.equal('CHAT_NOT_FOUND');
    expect((await rejection(client.contacts.block(BOT_ID))).code).to.equal('VALIDATION_FAILED');
  });

  it('a phone that blocked the bot gets nothing from it: one tick only', async () => {
    const alice = sdk.simulator.phone(ALICE);
    const bob = sdk.simulator.phone(BOB);
    alice.block(BOT_PHONE);
    const acks = new Map<string, number[]>();
    const bobRead = new Promise<void>((resolve) =>
      client.on('message.ack', (u) => {
        acks.set(u.chatId, [...(acks.get(u.chatId) ?? []), u.ack]);
        if (u.chatId === BOB_ID && u.ack === 3) resolve();
      }),
    );
    await client.sendTextMessage({ to: ALICE_ID, text: 'are you there?' });
    await client.sendTextMessage({ to: BOB_ID, text: 'and you?' });
    // Bob's acks are timed like Alice's would be, after them: once Bob read it, Alice's are final.
    await bobRead;
    expect(alice.inbox).to.have.length(0);
    expect(bob.inbox).to.have.length(1);
    expect(acks.get(ALICE_ID)).to.deep.equal([1]);
    expect(acks.get(BOB_ID)).to.deep.equal([1, 2, 3]);
  });

  it('needs a READY client', async () => {
    await client.stop();
    for (const call of [
      () => client.contacts.list(),
      () => client.contacts.get(ALICE),
      () => client.contacts.isRegistered(ALICE),
      () => client.contacts.getProfilePictureUrl(ALICE),
      () => client.contacts.block(ALICE),
    ]) {
      expect((await rejection(call())).code).to.equal('CLIENT_NOT_READY');
    }
  });
});
