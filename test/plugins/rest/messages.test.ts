import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import {
  ADMIN_TOKEN,
  CONTACT,
  CONTACT_ID,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function mediaServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/cat.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/download?id=7')
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PNG);
    else if (req.url === '/login')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>sign in</html>');
    else if (req.url === '/doc.pdf')
      res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 test');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('REST: messages', () => {
  let fx: RestFixture;
  afterEach(async () => {
    await fx?.close();
  });

  describe('with the default media policy', () => {
    beforeEach(async () => {
      fx = await restFixture();
      await fx.link('bot');
    });

    it('queues a text (202 + Location) and reports its status as it progresses to read', async () => {
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: 'hello' },
      });
      expect(res.status).to.equal(202);
      const body = res.json as { id: string };
      expect(body).to.deep.equal({
        id: body.id,
        status: 'queued',
        client: 'bot',
        chatId: CONTACT_ID,
      });
      expect(res.headers.get('location')).to.equal(`/api/v1/messages/${body.id}`);

      const received = await fx.sdk.simulator
        .phone(CONTACT)
        .waitForMessage((m) => m.body === 'hello');
      expect(received.type).to.equal('chat');

      const seen = new Set<string>();
      const final = await until(
        () => fx.request('GET', `/api/v1/messages/${body.id}`),
        (r) => {
          seen.add((r.json as { status: string }).status);
          return (r.json as { status: string }).status === 'read';
        },
      );
      expect(final.status).to.equal(200);
      expect(final.json).to.deep.include({
        id: body.id,
        client: 'bot',
        chatId: CONTACT_ID,
        status: 'read',
        ack: 3,
      });
      expect((final.json as { messageId: string }).messageId).to.equal(received.id);
      expect(final.json).to.have.property('sentAt');
      const named = await fx.request('GET', `/api/v1/clients/bot/messages/${body.id}`);
      expect(named.json).to.deep.include({ id: body.id, status: 'read' });
    });

    it('sends to a LID chat id and refuses a group as a mention, saying why', async () => {
      const lia = fx.sdk.simulator.phone('15550007777', {
        lidAddressed: true,
        lid: '123450000054321',
      });
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: '123450000054321@lid', content: 'hi by lid' },
      });
      expect(res.status).to.equal(202);
      expect((res.json as { chatId: string }).chatId).to.equal('123450000054321@lid');
      await lia.waitForMessage((m) => m.body === 'hi by lid');
      const bad = await fx.request('POST', '/api/v1/messages', {
        json: {
          chatId: CONTACT_ID,
          content: 'x',
          options: { mentions: ['120363000000000001@g.us'] },
        },
      });
      expect(bad.status).to.equal(400);
      expect(bad.json).to.deep.include({ code: 'INVALID_CHAT_ID' });
      expect((bad.json as { detail: string }).detail).to.contain('a group is not a person');
    });

    it('with Prefer: wait=N answers 201 once sent', async () => {
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT_ID, content: 'wait for me', options: { linkPreview: false } },
        headers: { prefer: 'wait=10' },
      });
      expect(res.status).to.equal(201);
      expect(res.headers.get('preference-applied')).to.equal('wait=10');
      const body = res.json as { id: string; messageId: string; ack: number; status: string };
      expect(body.status).to.equal('sent');
      expect(body.messageId).to.be.a('string');
      expect(body.ack).to.be.a('number');
      const inbox = fx.sdk.simulator.phone(CONTACT).inbox;
      expect(inbox.map((m) => m.id)).to.include(body.messageId);
    });

    it('sends base64 image data, on the named-client route too', async () => {
      const res = await fx.request('POST', '/api/v1/clients/bot/messages', {
        json: {
          chatId: CONTACT,
          content: {
            type: 'image',
            data: PNG.toString('base64'),
            mimetype: 'image/png',
            caption: 'dot',
          },
        },
        headers: { prefer: 'wait=10' },
      });
      expect(res.status).to.equal(201);
      const got = await fx.sdk.simulator.phone(CONTACT).waitForMessage((m) => m.type === 'image');
      expect(got.body).to.equal('dot');
      expect(got.media?.data.equals(PNG)).to.equal(true);
    });

    it('sends base64 data for every media kind', async () => {
      const kinds = [
        { type: 'video', mimetype: 'video/mp4', caption: 'v' },
        { type: 'audio', mimetype: 'audio/ogg' },
        { type: 'document', mimetype: 'application/pdf', filename: 'a.pdf', caption: 'd' },
        { type: 'sticker', mimetype: 'image/webp' },
      ];
      for (const kind of kinds) {
        const res = await fx.request('POST', '/api/v1/messages', {
          json: {
            chatId: CONTACT,
            content: { ...kind, data: Buffer.from(kind.type).toString('base64') },
          },
          headers: { prefer: 'wait=10' },
        });
        expect(res.status, kind.type).to.equal(201);
      }
      const inbox = fx.sdk.simulator.phone(CONTACT).inbox;
      expect(inbox.map((m) => m.media?.data.toString())).to.include.members([
        'video',
        'audio',
        'document',
        'sticker',
      ]);
      expect(inbox.find((m) => m.media?.data.toString() === 'document')?.media?.filename).to.equal(
        'a.pdf',
      );
    });

    it('refuses media URLs on private networks by default (422 MEDIA_URL_REFUSED, no fetch)', async () => {
      let hits = 0;
      const server = http.createServer((_req, res) => {
        hits++;
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      try {
        for (const url of [
          `http://127.0.0.1:${port}/x.png`,
          `http://localhost:${port}/x.png`,
          'http://169.254.169.254/latest/meta-data',
        ]) {
          const res = await fx.request('POST', '/api/v1/messages', {
            json: { chatId: CONTACT, content: { type: 'image', url } },
            headers: { prefer: 'wait=10' },
          });
          expect(res.status, url).to.equal(422);
          expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
          expect(res.json).to.include({ code: 'MEDIA_URL_REFUSED' });
        }
        expect(hits).to.equal(0);
        const accepted = await fx.request('POST', '/api/v1/messages', {
          json: {
            chatId: CONTACT,
            content: { type: 'image', url: `http://localhost:${port}/y.png` },
          },
        });
        expect(accepted.status).to.equal(202);
        const id = (accepted.json as { id: string }).id;
        const failed = await until(
          () => fx.request('GET', `/api/v1/messages/${id}`),
          (r) => (r.json as { status: string }).status === 'failed',
        );
        expect(failed.json).to.deep.include({ status: 'failed' });
        expect((failed.json as { error: { code: string } }).error.code).to.equal(
          'MEDIA_URL_REFUSED',
        );
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('rejects bad sends before queueing: chat ids, path sources, kind rules, options on media', async () => {
      const cases: [unknown, number, string][] = [
        [{ chatId: 'not a chat', content: 'x' }, 400, 'INVALID_CHAT_ID'],
        [
          { chatId: CONTACT, content: { type: 'image', path: '/etc/passwd' } },
          400,
          'VALIDATION_FAILED',
        ],
        [
          { chatId: CONTACT, content: { type: 'image', url: 'file:///etc/passwd' } },
          400,
          'VALIDATION_FAILED',
        ],
        [
          { chatId: CONTACT, content: { type: 'document', url: 'https://example.com/a.pdf' } },
          400,
          'VALIDATION_FAILED',
        ],
        [
          {
            chatId: CONTACT,
            content: { type: 'audio', url: 'https://example.com/a.ogg', caption: 'no' },
          },
          400,
          'VALIDATION_FAILED',
        ],
        [
          {
            chatId: CONTACT,
            content: { type: 'sticker', url: 'https://example.com/a.webp', caption: 'no' },
          },
          400,
          'VALIDATION_FAILED',
        ],
        [{ chatId: CONTACT, content: { type: 'image', data: 'AAAA' } }, 400, 'VALIDATION_FAILED'],
        [
          {
            chatId: CONTACT,
            content: {
              type: 'image',
              url: 'https://example.com/a.png',
              data: 'AAAA',
              mimetype: 'image/png',
            },
          },
          400,
          'VALIDATION_FAILED',
        ],
        [
          {
            chatId: CONTACT,
            content: { type: 'image', url: 'https://example.com/a.png' },
            options: { linkPreview: true },
          },
          400,
          'VALIDATION_FAILED',
        ],
        [{ chatId: CONTACT, content: 'x', client: 'nobody' }, 404, 'CLIENT_NOT_FOUND'],
      ];
      for (const [json, status, code] of cases) {
        const res = await fx.request('POST', '/api/v1/messages', { json });
        expect(res.status, JSON.stringify(json)).to.equal(status);
        expect(res.json, JSON.stringify(json)).to.include({ code });
      }
      const path = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: { type: 'image', path: '/etc/passwd' } },
      });
      expect((path.json as { errors: { path: string }[] }).errors.map((e) => e.path)).to.include(
        'content',
      );
    });

    it('answers 409 CLIENT_NOT_READY for a client that is not linked, and 404 for unknown tracking ids', async () => {
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: 'x', client: 'other' },
      });
      expect(res.status).to.equal(409);
      expect(res.json).to.include({ code: 'CLIENT_NOT_READY' });
      const missing = await fx.request('GET', '/api/v1/messages/does-not-exist');
      expect(missing.status).to.equal(404);
      expect(missing.json).to.include({ code: 'MESSAGE_NOT_FOUND' });
    });

    it('hides the sends of other clients from a scoped token', async () => {
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: 'secret' },
      });
      const id = (res.json as { id: string }).id;
      expect(
        (await fx.request('GET', `/api/v1/messages/${id}`, { token: ADMIN_TOKEN })).status,
      ).to.equal(200);
      const scoped = await fx.request('GET', `/api/v1/messages/${id}`, { token: SCOPED_TOKEN });
      expect(scoped.status).to.equal(404);
      const named = await fx.request('GET', `/api/v1/clients/bot/messages/${id}`, {
        token: SCOPED_TOKEN,
      });
      expect(named.status).to.equal(403);
      const send = await fx.request('POST', '/api/v1/messages', {
        token: SCOPED_TOKEN,
        json: { chatId: CONTACT, content: 'x' },
      });
      expect(send.status).to.equal(403);
      expect(send.json).to.include({ code: 'FORBIDDEN' });
    });
  });

  describe('with media.allowPrivateNetworks (a local media server)', () => {
    let media: { url: string; close: () => Promise<void> };
    beforeEach(async () => {
      media = await mediaServer();
      fx = await restFixture({ config: { media: { allowPrivateNetworks: true } } });
      await fx.link('bot');
    });
    afterEach(async () => {
      await media.close();
    });

    it('sends an image and a document by URL', async () => {
      const image = await fx.request('POST', '/api/v1/messages', {
        json: {
          chatId: CONTACT,
          content: { type: 'image', url: `${media.url}/cat.png`, caption: 'a cat' },
        },
        headers: { prefer: 'wait=10' },
      });
      expect(image.status).to.equal(201);
      const doc = await fx.request('POST', '/api/v1/messages', {
        json: {
          chatId: CONTACT,
          content: { type: 'document', url: `${media.url}/doc.pdf`, filename: 'report.pdf' },
        },
        headers: { prefer: 'wait=10' },
      });
      expect(doc.status).to.equal(201);
      const phone = fx.sdk.simulator.phone(CONTACT);
      const gotImage = await phone.waitForMessage((m) => m.type === 'image');
      expect(gotImage.body).to.equal('a cat');
      const gotDoc = await phone.waitForMessage((m) => m.type === 'document');
      expect(gotDoc.media?.filename).to.equal('report.pdf');
      const missing = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: { type: 'video', url: `${media.url}/none.mp4` } },
        headers: { prefer: 'wait=10' },
      });
      expect(missing.status).to.equal(502);
      expect(missing.json).to.include({ code: 'MEDIA_DOWNLOAD_FAILED' });
    });

    it("takes the specification's media request verbatim: mimetype with url is the declared type", async () => {
      const send = (url: string) =>
        fx.request('POST', '/api/v1/messages', {
          json: {
            chatId: '15550001111@c.us',
            content: { type: 'image', url, mimetype: 'image/png', caption: 'hi' },
          },
          headers: { prefer: 'wait=10' },
        });
      const sent = await send(`${media.url}/cat.png`);
      expect(sent.status, sent.text).to.equal(201);
      // a server that says nothing specific: the declared type is what WhatsApp gets
      expect((await send(`${media.url}/download?id=7`)).status).to.equal(201);
      const phone = fx.sdk.simulator.phone(CONTACT);
      const got = await until(
        () => Promise.resolve(phone.inbox.filter((m) => m.type === 'image')),
        (images) => images.length === 2,
      );
      expect(got.map((m) => [m.body, m.media?.mimetype])).to.deep.equal([
        ['hi', 'image/png'],
        ['hi', 'image/png'],
      ]);
      expect(got[1]?.media?.data.equals(PNG)).to.equal(true);

      const page = await send(`${media.url}/login`);
      expect(page.status).to.equal(422);
      expect(page.json).to.deep.include({ code: 'MEDIA_TYPE_MISMATCH' });
      expect((page.json as { detail: string }).detail).to.contain('text/html');
    });
  });
});
