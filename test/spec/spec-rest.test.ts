/**
 * SPEC.md, "REST endpoints" and "REST API access", on the simulator: the requests of the
 * specification sent as it writes them (`Authorization: Bearer <AUTH_TOKEN>`, `Content-Type:
 * application/json` with JSON bodies), the QR flow over REST, and the named errors as REST answers.
 */
import { expect } from 'chai';
import { ADMIN_TOKEN, BOT_PHONE, restFixture, type RestFixture } from '../helpers/rest-harness.js';
import { mediaServer } from '../helpers/sdk-fixtures.js';

const AUTH_TOKEN = ADMIN_TOKEN;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('SPEC: the REST API (simulator)', () => {
  let fx: RestFixture;
  let media: Awaited<ReturnType<typeof mediaServer>>;

  /** A request as the specification writes it. */
  async function call(method: string, route: string, json?: unknown): Promise<Answer> {
    const response = await fetch(`${fx.url}${route}`, {
      method,
      headers: {
        Authorization: `Bearer ${AUTH_TOKEN}`,
        ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
  }

  /** Authentication over REST: initialize, fetch the QR, the phone scans it, info until READY. */
  async function authenticate(): Promise<Answer[]> {
    const initialize = await call('POST', '/api/v1/client/initialize');
    // the QR code is shown once the client generated it (409 QR_NOT_AVAILABLE before)
    const qr = await poll(() => call('GET', '/api/v1/client/qr?format=base64'), 200);
    // the QR code is scanned with the mobile application (here: a simulated phone)
    const scan = await call('POST', '/api/v1/simulator/scan', { phone: BOT_PHONE });
    expect(scan.status, JSON.stringify(scan.body)).to.equal(202);
    // through the REST API the status is monitored until it becomes READY
    const info = await poll(
      () => call('GET', '/api/v1/client/info'),
      200,
      (a) => a.body.status === 'READY',
    );
    return [initialize, qr, info];
  }

  async function poll(
    request: () => Promise<Answer>,
    status: number,
    done: (answer: Answer) => boolean = () => true,
  ): Promise<Answer> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const answer = await request();
      if ((answer.status === status && done(answer)) || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeEach(async () => {
    media = await mediaServer({ 'cat.png': { type: 'image/png', body: PNG } });
    fx = await restFixture({ config: { media: { allowPrivateNetworks: true } } });
  });
  afterEach(async () => {
    await fx.close();
    media.close();
  });

  it('POST /api/v1/client/initialize, GET /api/v1/client/qr?format=base64, GET /api/v1/client/info until READY', async () => {
    const [initialize, qr, info] = await authenticate();
    expect(initialize?.status).to.equal(202);
    expect(initialize?.body).to.deep.equal({ name: 'bot', status: 'STARTING' });
    expect(qr?.status).to.equal(200);
    expect(qr?.body).to.include({ format: 'base64', mimetype: 'image/png' });
    const image = Buffer.from(qr?.body.data as string, 'base64');
    expect(image.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a'); // a PNG image
    expect(info?.status).to.equal(200);
    expect(info?.body).to.deep.include({ name: 'bot', status: 'READY' });
  });

  it('POST /api/v1/messages: a string content sends a text message', async () => {
    await authenticate();
    const sent = await call('POST', '/api/v1/messages', {
      chatId: '15550001111@c.us',
      content: 'Hello from the API',
    });
    expect(sent.status).to.equal(202);
    expect(sent.body).to.include({ status: 'queued', chatId: '15550001111@c.us' });
    const phone = fx.sdk.simulator.phone('15550001111');
    expect((await phone.waitForMessage()).body).to.equal('Hello from the API');
  });

  it('POST /api/v1/messages: the media content { type: "image", url, mimetype, caption }', async () => {
    await authenticate();
    const sent = await call('POST', '/api/v1/messages', {
      chatId: '15550001111@c.us',
      content: {
        type: 'image',
        url: media.url('cat.png'),
        mimetype: 'image/png',
        caption: 'hi',
      },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    const phone = fx.sdk.simulator.phone('15550001111');
    const image = await phone.waitForMessage();
    expect(image).to.include({ type: 'image', body: 'hi', caption: 'hi' });
    expect(image.media?.mimetype).to.equal('image/png');
    expect(image.media?.data.equals(PNG)).to.equal(true);
    const status = await call('GET', `/api/v1/messages/${sent.body.id as string}`);
    expect(status.body).to.include({ kind: 'image', chatId: '15550001111@c.us' });
  });

  it('the message-sending request carries Authorization: Bearer <AUTH_TOKEN> and Content-Type: application/json', async () => {
    await authenticate();
    const body = JSON.stringify({ chatId: '15550001111@c.us', content: 'x' });
    const send = (headers: Record<string, string>) =>
      fetch(`${fx.url}/api/v1/messages`, { method: 'POST', headers, body });
    expect((await send({ 'Content-Type': 'application/json' })).status).to.equal(401);
    const wrong = await send({
      Authorization: 'Bearer not-the-token',
      'Content-Type': 'application/json',
    });
    expect(wrong.status).to.equal(401);
    const noType = await send({
      Authorization: `Bearer ${AUTH_TOKEN}`,
      'Content-Type': 'text/plain',
    });
    expect(noType.status).to.equal(415);
    expect(fx.sdk.simulator.phone('15550001111').inbox).to.have.length(0);
  });

  it('a client must be READY before messages are sent: 409 CLIENT_NOT_READY', async () => {
    const early = await call('POST', '/api/v1/messages', {
      chatId: '15550001111@c.us',
      content: 'too early',
    });
    expect(early.status).to.equal(409);
    expect(early.body).to.include({ code: 'CLIENT_NOT_READY' });
  });

  it('the named errors as answers: chat not found, media download failed, permission error', async () => {
    await authenticate();
    fx.sdk.simulator.group({
      id: '120363000000000003@g.us',
      members: [BOT_PHONE, '15550001111'],
      admins: ['15550001111'],
      adminsOnly: true,
    });
    const waited = async (json: unknown): Promise<Answer> => {
      const response = await fetch(`${fx.url}/api/v1/messages`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${AUTH_TOKEN}`,
          'Content-Type': 'application/json',
          Prefer: 'wait=10',
        },
        body: JSON.stringify(json),
      });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    };
    const cases: Array<[unknown, number, string]> = [
      [{ chatId: '19999999999@c.us', content: 'x' }, 404, 'CHAT_NOT_FOUND'],
      [{ chatId: 'not a chat', content: 'x' }, 400, 'INVALID_CHAT_ID'],
      [
        { chatId: '15550001111@c.us', content: { type: 'image', url: media.url('gone.png') } },
        502,
        'MEDIA_DOWNLOAD_FAILED',
      ],
      [{ chatId: '120363000000000003@g.us', content: 'x' }, 403, 'PERMISSION_DENIED'],
    ];
    for (const [json, status, code] of cases) {
      const answer = await waited(json);
      expect(answer.status, JSON.stringify(json)).to.equal(status);
      expect(answer.body).to.include({ code });
      expect(JSON.stringify(answer.body)).to.not.match(/\bat .+\.ts:\d+/); // no stack trace
    }
  });
});
