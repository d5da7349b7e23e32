/**
 * Every failure reaches the sink (issue 30): failures that used to be only logged now reach
 * `sdk.on('error')`, each exactly once, with where they happened.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { pino } from 'pino';
import restPlugin from '../../plugins/rest/index.js';
import { ErrorSink } from '../../src/kernel/error-sink.js';
import type { WakitErrorEvent } from '../../src/index.js';
import { ADMIN_TOKEN } from '../helpers/rest-harness.js';
import { linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const where = (events: WakitErrorEvent[]) =>
  events.map((e) => [e.source, e.event, e.client, e.error.message]);

describe('every failure reaches the sink (sdk.on("error")), once', function () {
  this.timeout(20_000);
  let dir: { dir: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.cleanup());

  it('a throwing close hook is reported (source hook); the other hooks still run', async () => {
    const sdk = simulatorSdk(dir.dir);
    const errors: WakitErrorEvent[] = [];
    sdk.on('error', (e) => errors.push(e));
    const ran: string[] = [];
    sdk.onClose('first', () => void ran.push('first'));
    sdk.onClose('broken', () => Promise.reject(new Error('cannot flush')));
    await sdk.start();
    await sdk.stop();
    expect(ran).to.deep.equal(['first']);
    expect(where(errors)).to.deep.equal([['hook', 'close:broken', undefined, 'cannot flush']]);
  });

  it('a webhook that fails for good is reported (source webhook, plugin rest)', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits += 1;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const sdk = simulatorSdk(dir.dir);
    const errors: WakitErrorEvent[] = [];
    sdk.on('error', (e) => errors.push(e));
    sdk.use(restPlugin, {
      port: 0,
      tokens: [{ token: ADMIN_TOKEN, clients: ['*'] }],
      webhooks: [{ url, secret: 'whsec-0123456789abcdef', events: ['ready'], maxAttempts: 1 }],
    });
    try {
      await sdk.start();
      await linkedClient(sdk, 'bot');
      await until(() => errors.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(hits).to.equal(1);
      expect(errors.map((e) => [e.source, e.plugin, e.event, e.client])).to.deep.equal([
        ['webhook', 'rest', 'ready', 'bot'],
      ]);
      expect(errors[0].error.message).to.equal('webhook delivery failed after 1 attempts');
    } finally {
      await sdk.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a throwing onClient listener is reported (source handler) and createClient goes on', () => {
    const sdk = simulatorSdk(dir.dir);
    const errors: WakitErrorEvent[] = [];
    sdk.on('error', (e) => errors.push(e));
    sdk.onClient(() => {
      throw new Error('listener bug');
    });
    expect(sdk.createClient({ name: 'bot' }).name).to.equal('bot');
    expect(where(errors)).to.deep.equal([['handler', 'client', 'bot', 'listener bug']]);
  });

  it('one failure reported from two places reaches the listeners once', () => {
    const sink = new ErrorSink(pino({ level: 'silent' }));
    const heard: WakitErrorEvent[] = [];
    sink.on((e) => heard.push(e));
    const failure = new Error('engine did not start');
    sink.report({ source: 'engine', client: 'bot', error: failure });
    sink.report({ source: 'client', event: 'start', client: 'bot', error: failure });
    sink.report({ source: 'client', event: 'start', client: 'bot', error: new Error('another') });
    expect(where(heard)).to.deep.equal([
      ['engine', undefined, 'bot', 'engine did not start'],
      ['client', 'start', 'bot', 'another'],
    ]);
  });
});
