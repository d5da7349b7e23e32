/**
 * Locations, contact cards and polls through the SDK on the simulator, both ways: the bot's sends
 * reach the phone with their data, the phone's arrive as messages carrying theirs; poll votes,
 * quoted media replies and getQuotedMessage; validation errors.
 */
import { expect } from 'chai';
import {
  isWakitError,
  type BotClient,
  type Message,
  type Sdk,
  type WakitError,
} from '../../../src/index.js';
import { prepareSend } from '../../../src/entries/contract.js';
import type { PollVote } from '../../../src/entries/types.js';
import {
  BOT_ID,
  BOT_PHONE,
  linkedClient,
  simulatorSdk,
  tempDir,
} from '../../helpers/sdk-fixtures.js';

const ALICE = '15550001111';
const ALICE_ID = `${ALICE}@c.us`;
const BOB = '15550002222';
const LIA = '15550003333';
const LIA_LID = '123456789012345@lid';
const GROUP = '120363000000000042@g.us';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

async function rejection(promise: Promise<unknown>): Promise<WakitError> {
  try {
    await promise;
  } catch (error) {
    return error as WakitError;
  }
  throw new Error('expected a rejection');
}

/** The next `event` of the client matching `predicate` (5 s deadline). */
function next<T>(
  client: BotClient,
  event: 'message' | 'message.create' | 'poll.vote',
  predicate: (value: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} in time`)), 5_000);
    const handler = (value: T): void => {
      if (!predicate(value)) return;
      clearTimeout(timer);
      client.off(event, handler as never);
      resolve(value);
    };
    client.on(event, handler as never);
  });
}

describe('messages: locations, contacts and polls (SDK on the simulator)', function () {
  this.timeout(15_000);
  let dir: { dir: string; cleanup: () => Promise<void> };
  let sdk: Sdk;
  let client: BotClient;

  beforeEach(async () => {
    dir = await tempDir('wakit-messages-');
    sdk = simulatorSdk(dir.dir);
    sdk.simulator.phone(ALICE, { pushname: 'Alice' });
    sdk.simulator.phone(BOB, { pushname: 'Bob' });
    sdk.simulator.phone(LIA, { pushname: 'Lia', lidAddressed: true, lid: LIA_LID.slice(0, 15) });
    sdk.simulator.group({ id: GROUP, members: [BOT_PHONE, ALICE, BOB] });
    client = await linkedClient(sdk, 'bot');
  });
  afterEach(async () => {
    await sdk.stop();
    await dir.cleanup();
  });

  describe('sending', () => {
    it('a location reaches the phone with its data; the own message and the tracking say so', async () => {
      const created = next<Message>(client, 'message.create', (m) => m.type === 'location');
      const { id, trackingId } = await client.sendLocationMessage({
        to: `+${ALICE}`,
        location: {
          latitude: 52.52,
          longitude: 13.405,
          name: ' Brandenburger Tor ',
          address: 'Pariser Platz',
        },
      });
      const received = await sdk.simulator.phone(ALICE).waitForMessage((m) => m.id === id);
      expect(received.type).to.equal('location');
      expect(received.location).to.deep.equal({
        latitude: 52.52,
        longitude: 13.405,
        name: 'Brandenburger Tor',
        address: 'Pariser Platz',
      });
      expect(received.body).to.equal('Brandenburger Tor\nPariser Platz');
      const own = await created;
      expect(own.fromMe).to.equal(true);
      expect(own.location).to.deep.equal(received.location);
      expect((await sdk.sends.get(trackingId))?.kind).to.equal('location');
    });

    it('contact cards: a user by id (number hidden for LID users), a vCard, several at once', async () => {
      const one = await client.sendContactMessage({ to: ALICE_ID, contacts: [{ id: `+${BOB}` }] });
      const alice = sdk.simulator.phone(ALICE);
      const card = await alice.waitForMessage((m) => m.id === one.id);
      expect(card.type).to.equal('vcard');
      expect(card.vcards).to.have.length(1);
      expect(card.body).to.equal(card.vcards![0]);
      expect(card.vcards![0]).to.match(
        /^BEGIN:VCARD\nVERSION:3\.0\nFN:Bob\nTEL;.*waid=15550002222:\+15550002222\nEND:VCARD$/,
      );

      const vcard =
        'BEGIN:VCARD\nVERSION:3.0\nFN:Dr. Who\nTEL;type=CELL:+44 20 7946 0000\nEND:VCARD';
      const many = await client.sendContactMessage({
        to: ALICE_ID,
        contacts: [{ vcard }, { id: LIA_LID }],
      });
      const multi = await alice.waitForMessage((m) => m.id === many.id);
      expect(multi.type).to.equal('multi_vcard');
      expect(multi.body).to.equal('');
      expect(multi.vcards![0]).to.equal(vcard);
      expect(multi.vcards![1]).to.contain('FN:Lia').and.not.contain('TEL');
    });

    it('a contact that is not on WhatsApp fails the send with CHAT_NOT_FOUND', async () => {
      const error = await rejection(
        client.sendContactMessage({ to: ALICE_ID, contacts: [{ id: '19990009999' }] }),
      );
      expect(isWakitError(error, 'CHAT_NOT_FOUND')).to.equal(true);
    });

    it('a poll reaches the phone; votes come back as poll.vote with the chosen options', async () => {
      const { id } = await client.sendPollMessage({
        to: ALICE_ID,
        poll: { question: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'] },
      });
      const alice = sdk.simulator.phone(ALICE);
      const poll = await alice.waitForMessage((m) => m.id === id);
      expect(poll.type).to.equal('poll_creation');
      expect(poll.body).to.equal('Lunch?');
      expect(poll.poll).to.deep.equal({
        question: 'Lunch?',
        options: ['Pizza', 'Sushi', 'Salad'],
        allowMultipleAnswers: false,
      });
      const vote = next<PollVote>(client, 'poll.vote');
      await alice.vote(poll.id, ['Sushi']);
      expect(await vote).to.deep.include({
        pollMessageId: id,
        chatId: ALICE_ID,
        voter: ALICE_ID,
        selectedOptions: ['Sushi'],
      });
      const retracted = next<PollVote>(client, 'poll.vote');
      await alice.vote(poll.id, []);
      expect((await retracted).selectedOptions).to.deep.equal([]);
      // one answer only; options must exist; strangers cannot vote
      expect((await rejection(alice.vote(id, ['Pizza', 'Sushi']))).code).to.equal(
        'VALIDATION_FAILED',
      );
      const unknown = await rejection(alice.vote(id, ['Burger']));
      expect(unknown.code).to.equal('VALIDATION_FAILED');
      expect(unknown.details).to.deep.include({ unknown: ['Burger'] });
      expect((await rejection(sdk.simulator.phone(BOB).vote(id, ['Pizza']))).code).to.equal(
        'MESSAGE_NOT_FOUND',
      );
    });

    it('group poll with several answers: every member votes, the bot hears each vote by group', async () => {
      const { id } = await client.sendPollMessage({
        to: GROUP,
        poll: {
          question: 'Which days?',
          options: ['Mon', 'Tue', 'Wed'],
          allowMultipleAnswers: true,
        },
      });
      const alice = sdk.simulator.phone(ALICE);
      const bob = sdk.simulator.phone(BOB);
      const seen = await bob.waitForMessage((m) => m.id === id);
      expect(seen.poll?.allowMultipleAnswers).to.equal(true);
      const votes: PollVote[] = [];
      client.on('poll.vote', (vote) => void votes.push(vote));
      await alice.vote(id, ['Wed', 'Mon']);
      await bob.vote(seen.id, ['Tue']);
      expect(
        votes.map((v) => [v.voter, v.chatId, v.pollMessageId, v.selectedOptions]),
      ).to.deep.equal([
        [ALICE_ID, GROUP, id, ['Mon', 'Wed']],
        [`${BOB}@c.us`, GROUP, id, ['Tue']],
      ]);
      // not a member: cannot see the poll
      expect((await rejection(sdk.simulator.phone(LIA).vote(id, ['Mon']))).code).to.equal(
        'MESSAGE_NOT_FOUND',
      );
    });

    it('media replies quote the message (SDK options.quotedMessageId and message.reply(content))', async () => {
      const alice = sdk.simulator.phone(ALICE);
      const incoming = next<Message>(client, 'message', (m) => m.body === 'send me a picture');
      await alice.send(BOT_ID, 'send me a picture');
      const message = await incoming;
      const sent = await client.sendImageMessage({
        to: ALICE_ID,
        image: { data: PNG, mimetype: 'image/png', caption: 'here' },
        options: { quotedMessageId: message.id },
      });
      const image = await alice.waitForMessage((m) => m.id === sent.id);
      expect(image.type).to.equal('image');
      expect(image.quotedMessageId).to.equal(message.id);
      const doc = await message.reply({
        type: 'document',
        data: PNG,
        mimetype: 'image/png',
        filename: 'x.png',
      });
      expect((await alice.waitForMessage((m) => m.id === doc.id)).quotedMessageId).to.equal(
        message.id,
      );
      const place = await message.reply({ type: 'location', latitude: 1.5, longitude: -2 });
      const pin = await alice.waitForMessage((m) => m.id === place.id);
      expect(pin.quotedMessageId).to.equal(message.id);
      expect(pin.location).to.deep.equal({ latitude: 1.5, longitude: -2 });
    });

    it('refuses locations and contact cards to channels and status, polls to status', async () => {
      sdk.simulator.channel({ id: '120363000000000777', admins: [BOT_PHONE] });
      for (const to of ['120363000000000777@newsletter', 'status@broadcast']) {
        const error = await rejection(
          client.sendLocationMessage({ to, location: { latitude: 0, longitude: 0 } }),
        );
        expect(error.code, to).to.equal('VALIDATION_FAILED');
        expect(error.message).to.contain('locations cannot be sent');
      }
      const poll = { question: 'q', options: ['a', 'b'] };
      expect(
        (await rejection(client.sendPollMessage({ to: 'status@broadcast', poll }))).code,
      ).to.equal('VALIDATION_FAILED');
      await client.sendPollMessage({ to: '120363000000000777@newsletter', poll });
    });
  });

  describe('validation', () => {
    const paths = (error: WakitError) => (error.issues ?? []).map((i) => i.path);

    it('a poll takes 2-12 distinct options: 1 or 13 are VALIDATION_FAILED with issues', async () => {
      for (const count of [1, 13]) {
        const options = Array.from({ length: count }, (_, i) => `option ${i}`);
        const error = await rejection(
          client.sendPollMessage({ to: ALICE_ID, poll: { question: 'q', options } }),
        );
        expect(error.code).to.equal('VALIDATION_FAILED');
        expect(paths(error), String(count)).to.deep.equal(['poll.options']);
      }
      const twice = await rejection(
        client.sendPollMessage({ to: ALICE_ID, poll: { question: 'q', options: ['a', ' a'] } }),
      );
      expect(twice.issues?.[0]?.message).to.contain('different');
      const blank = await rejection(
        client.sendPollMessage({ to: ALICE_ID, poll: { question: ' ', options: ['a', 'b'] } }),
      );
      expect(paths(blank)).to.deep.equal(['poll.question']);
    });

    it('locations need coordinates in range; contacts need ids or vCards', async () => {
      const far = await rejection(
        client.sendLocationMessage({ to: ALICE_ID, location: { latitude: 91, longitude: 181 } }),
      );
      expect(paths(far).sort()).to.deep.equal(['location.latitude', 'location.longitude']);
      const none = await rejection(client.sendContactMessage({ to: ALICE_ID, contacts: [] }));
      expect(paths(none)).to.deep.equal(['contacts']);
      const junk = await rejection(
        client.sendContactMessage({ to: ALICE_ID, contacts: [{ vcard: 'hello' }] }),
      );
      expect(junk.code).to.equal('VALIDATION_FAILED');
      const group = await rejection(
        client.sendContactMessage({ to: ALICE_ID, contacts: [{ id: GROUP }] }),
      );
      expect(group.code).to.equal('INVALID_CHAT_ID');
    });
  });

  describe('receiving', () => {
    it("the phone's location, contact card and poll arrive with their data", async () => {
      const alice = sdk.simulator.phone(ALICE);
      const location = next<Message>(client, 'message', (m) => m.type === 'location');
      await alice.send(BOT_ID, {
        location: { latitude: -33.8568, longitude: 151.2153, name: 'Opera' },
      });
      const place = await location;
      expect(place.location).to.deep.equal({
        latitude: -33.8568,
        longitude: 151.2153,
        name: 'Opera',
      });
      expect(place.body).to.equal('Opera');
      expect(JSON.parse(JSON.stringify(place))).to.have.nested.property('location.name', 'Opera');

      const card = next<Message>(client, 'message', (m) => m.type === 'vcard');
      await alice.send(BOT_ID, { contacts: [{ id: BOB }] });
      const contact = await card;
      expect(contact.contacts).to.deep.equal([
        { name: 'Bob', id: `${BOB}@c.us`, phones: [`+${BOB}`] },
      ]);
      expect(contact.vcards).to.have.length(1);

      const created = next<Message>(client, 'message', (m) => m.type === 'poll_creation');
      const sent = await alice.send(BOT_ID, {
        poll: { question: 'Coffee?', options: ['Yes', 'No'] },
      });
      const poll = await created;
      expect(poll.body).to.equal('Coffee?');
      expect(poll.poll).to.deep.equal({
        question: 'Coffee?',
        options: ['Yes', 'No'],
        allowMultipleAnswers: false,
      });
      // the bot is in the chat: Bob voting on Alice's private poll is not possible
      expect((await rejection(sdk.simulator.phone(BOB).vote(sent.id, ['Yes']))).code).to.equal(
        'MESSAGE_NOT_FOUND',
      );
      expect(
        (await rejection(alice.send(BOT_ID, { poll: { question: 'q', options: ['a'] } }))).code,
      ).to.equal('VALIDATION_FAILED');
    });

    it('getQuotedMessage gives the quoted message (own or received), null when none', async () => {
      const alice = sdk.simulator.phone(ALICE);
      const { id: ownId } = await client.sendPollMessage({
        to: ALICE_ID,
        poll: { question: 'Tea?', options: ['Yes', 'No'] },
      });
      const reply = next<Message>(client, 'message', (m) => m.body === 'yes please');
      await alice.send(BOT_ID, 'yes please', { quotedMessageId: ownId });
      const message = await reply;
      expect(message.hasQuotedMsg).to.equal(true);
      const quoted = await message.getQuotedMessage();
      expect(quoted?.id).to.equal(ownId);
      expect(quoted?.fromMe).to.equal(true);
      expect(quoted?.poll?.question).to.equal('Tea?');
      expect(quoted?.client).to.equal('bot');

      const first = next<Message>(client, 'message', (m) => m.body === 'first');
      await alice.send(BOT_ID, 'first');
      const original = await first;
      const second = next<Message>(client, 'message', (m) => m.body === 'second');
      await alice.send(BOT_ID, 'second', { quotedMessageId: original.id });
      const back = await (await second).getQuotedMessage();
      expect(back?.id).to.equal(original.id);
      expect(back?.fromMe).to.equal(false);
      expect(back?.body).to.equal('first');
      expect(await original.getQuotedMessage()).to.equal(null);
    });
  });
});

describe('messages: a journaled location, poll and contact send survives a restart', function () {
  this.timeout(20_000);

  it('sends accepted before the stop go out after the next start, with their data', async () => {
    const dir = await tempDir('wakit-messages-recover-');
    try {
      const first = simulatorSdk(dir.dir, {
        queue: { holdUntilReady: true, minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
      });
      const held = first.createClient({ name: 'bot' });
      await held.initialize(); // showing a QR: not linked, sends are held in the outbox
      const accepted = await Promise.all([
        held.enqueue(
          prepareSend('location', {
            to: ALICE_ID,
            location: { latitude: 48.8584, longitude: 2.2945, name: 'Tour Eiffel' },
          }),
        ),
        held.enqueue(
          prepareSend('poll', {
            to: ALICE_ID,
            poll: { question: 'Again?', options: ['Yes', 'No'], allowMultipleAnswers: true },
            options: { quotedMessageId: 'true_15550001111@c.us_3EB0AAAA' },
          }),
        ),
        held.enqueue(
          prepareSend('contact', {
            to: ALICE_ID,
            contacts: [{ vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ann\nEND:VCARD' }, { id: BOB }],
          }),
        ),
      ]);
      for (const send of accepted) send.result.catch(() => undefined);
      await first.stop({ drainTimeoutMs: 0 });

      const second = simulatorSdk(dir.dir);
      second.simulator.phone(ALICE);
      second.simulator.phone(BOB, { pushname: 'Bob' });
      try {
        await linkedClient(second, 'bot');
        const alice = second.simulator.phone(ALICE);
        const place = await alice.waitForMessage((m) => m.type === 'location');
        expect(place.location).to.deep.equal({
          latitude: 48.8584,
          longitude: 2.2945,
          name: 'Tour Eiffel',
        });
        const poll = await alice.waitForMessage((m) => m.type === 'poll_creation');
        expect(poll.poll).to.deep.equal({
          question: 'Again?',
          options: ['Yes', 'No'],
          allowMultipleAnswers: true,
        });
        expect(poll.quotedMessageId).to.equal('true_15550001111@c.us_3EB0AAAA');
        const cards = await alice.waitForMessage((m) => m.type === 'multi_vcard');
        expect(cards.vcards?.[0]).to.contain('FN:Ann');
        expect(cards.vcards?.[1]).to.contain('FN:Bob');
        for (const { trackingId } of accepted) {
          const deadline = Date.now() + 5_000;
          let status = (await second.sends.get(trackingId))?.status;
          while (status === 'sending' && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            status = (await second.sends.get(trackingId))?.status;
          }
          expect(status).to.be.oneOf(['sent', 'delivered', 'read']);
        }
      } finally {
        await second.stop();
      }
    } finally {
      await dir.cleanup();
    }
  });
});
