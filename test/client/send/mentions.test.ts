/**
 * Mentions on received messages (docs/messages.md): `mentionedIds` on the SDK's Message, in the
 * REST chat history, SSE and webhook payloads, and in the simulated phone's inbox.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Message, Sdk } from '../../../src/index.js';
import {
  BOT_ID,
  BOT_PHONE,
  linkedClient,
  simulatorSdk,
  tempDir,
} from '../../helpers/sdk-fixtures.js';
import { rejection } from '../../helpers/rejection.js';
import {
  ADMIN_TOKEN,
  CONTACT,
  readEvents,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

const GROUP = '120363000000000077@g.us';

describe('mentions on received messages', () => {
  describe('SDK on the simulator', () => {
    let sdk: Sdk;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      const dir = await tempDir();
      cleanup = dir.cleanup;
      sdk = simulatorSdk(dir.dir);
    });
    afterEach(async () => {
      await sdk.stop();
      await cleanup();
    });

    it('a bot can tell it was mentioned in a group; a phone sees the mentions of what it gets', async () => {
      const client = await linkedClient(sdk, 'bot');
      const alice = sdk.simulator.phone('15550001111');
      const bob = sdk.simulator.phone('15550002222');
      sdk.simulator.group({ id: GROUP, members: [BOT_PHONE, alice.number, bob.number] });
      const received: Message[] = [];
      client.on('message', (m) => received.push(m));

      await alice.send(GROUP, '@15550000001 @15550002222 standup?', {
        mentions: [BOT_PHONE, bob.id],
      });
      await alice.send(GROUP, 'no one in particular');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(received.map((m) => m.mentionedIds)).to.deep.equal([[BOT_ID, bob.id], []]);
      const me = client.info().me!.id;
      expect(received.map((m) => m.mentionedIds.includes(me))).to.deep.equal([true, false]);
      expect(JSON.parse(JSON.stringify(received[0]))).to.have.deep.property('mentionedIds', [
        BOT_ID,
        bob.id,
      ]);
      // the other members' phones see the mentions too
      expect(bob.inbox.at(-2)?.mentionedIds).to.deep.equal([BOT_ID, bob.id]);
      expect(bob.inbox.at(-1)?.mentionedIds).to.deep.equal([]);

      await client.sendTextMessage({
        to: GROUP,
        text: '@15550001111 yes',
        options: { mentions: [alice.id] },
      });
      expect(
        (await bob.waitForMessage((m) => m.body === '@15550001111 yes')).mentionedIds,
      ).to.deep.equal([alice.id]);
      const history = await client.chats.messages(GROUP, { limit: 1 });
      expect(history[0]?.mentionedIds).to.deep.equal([alice.id]);
      expect(
        (await rejection(alice.send(GROUP, 'x', { mentions: ['not a number'] }))).code,
      ).to.equal('VALIDATION_FAILED');
    });
  });

  describe('REST: history, SSE, webhooks and the simulator inbox', () => {
    let fx: RestFixture;
    let hook: { url: string; bodies: string[]; close: () => Promise<void> };
    beforeEach(async () => {
      const bodies: string[] = [];
      const server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          bodies.push(body);
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      hook = {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        bodies,
        close: async () => {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        },
      };
      fx = await restFixture({
        rest: {
          webhooks: [{ url: hook.url, secret: 'webhook-secret-0123456789', events: ['message'] }],
        },
      });
      await fx.link('bot');
      fx.sdk.simulator.group({ id: GROUP, members: [BOT_PHONE, CONTACT] });
    });
    afterEach(async () => {
      await fx.close();
      await hook.close();
    });

    it('carry mentionedIds', async () => {
      const stream = readEvents(
        `${fx.url}/api/v1/events?types=message`,
        { token: ADMIN_TOKEN },
        (events) => events.length >= 1,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const sent = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/messages`, {
        json: { to: GROUP, text: '@15550000001 ping', mentions: [BOT_PHONE] },
      });
      expect(sent.status, sent.text).to.equal(201);
      const { events } = await stream;
      expect(events[0]?.data.data).to.deep.include({
        body: '@15550000001 ping',
        mentionedIds: [BOT_ID],
      });

      const history = await fx.request('GET', `/api/v1/chats/${GROUP}/messages?limit=1`);
      expect((history.json as { items: unknown[] }).items[0]).to.deep.include({
        mentionedIds: [BOT_ID],
      });

      const deadline = Date.now() + 5_000;
      while (hook.bodies.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const delivery = JSON.parse(hook.bodies[0] ?? '{}') as { data?: Record<string, unknown> };
      expect(delivery.data).to.deep.include({ mentionedIds: [BOT_ID] });

      await fx.request('POST', '/api/v1/messages', {
        json: { chatId: GROUP, content: '@15550001111 pong', options: { mentions: [CONTACT] } },
        headers: { prefer: 'wait=5' },
      });
      const inbox = await fx.request('GET', `/api/v1/simulator/phones/${CONTACT}/inbox`);
      expect((inbox.json as Array<{ body: string }>).at(-1)).to.deep.include({
        body: '@15550001111 pong',
        mentionedIds: [`${CONTACT}@c.us`],
      });
      const bad = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/messages`, {
        json: { to: GROUP, text: 'x', mentions: ['nobody'] },
      });
      expect(bad.status).to.equal(400);
    });
  });
});
