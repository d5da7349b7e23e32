/**
 * The adapter's vocabulary checked against the installed whatsapp-web.js sources (1.34): every
 * method, event, send option and RemoteAuth store call wakit relies on must exist there under that
 * name. A library update that renames one fails here, not in production.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { toSendArguments } from '../../src/engines/wwebjs/operations.js';
import { buildClientOptions } from '../../src/engines/wwebjs/client-options.js';
import { engineSchema } from '../../src/config/schema.js';
import type { WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { FakeWhatsAppNetwork } from '../helpers/fake-wwebjs-client.js';

const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve('whatsapp-web.js/package.json'));
const source = (file: string) => readFile(path.join(root, 'src', file), 'utf8');

/** The body of `async <name>(` in a class source, up to the next method at the same indent. */
function methodBody(text: string, name: string): string {
  const start = text.indexOf(`    async ${name}(`);
  expect(start, `${name} exists`).to.be.greaterThan(-1);
  const end = text.indexOf('\n    async ', start + 10);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('whatsapp-web.js library contract (installed sources)', () => {
  it('is the 1.34 line', () => {
    const { version } = require('whatsapp-web.js/package.json') as { version: string };
    expect(version).to.match(/^1\.34\./);
  });

  it('has every Client method the engine calls, with the arities used', async () => {
    const client = await source('Client.js');
    for (const [name, params] of [
      ['initialize', ''],
      ['destroy', ''],
      ['logout', ''],
      ['sendMessage', 'chatId, content, options = {}'],
      ['getMessageById', 'messageId'],
      ['getChatById', 'chatId'],
      ['getNumberId', 'number'],
      ['getContactById', 'contactId'],
      ['getContactLidAndPhone', 'userIds'],
    ] as const) {
      expect(client, name).to.contain(`    async ${name}(${params})`);
    }
    expect(methodBody(client, 'requestPairingCode')).to.match(
      /requestPairingCode\(\s*phoneNumber,\s*showNotification = true,/,
    );
    const message = await source('structures/Message.js');
    expect(message).to.contain('    async forward(chat)');
    expect(message).to.contain('    async downloadMedia()');
    expect(message).to.contain("data.isStatusV3 || data.id.remote === 'status@broadcast'");
  });

  it('emits the events the engine listens to, with those names', async () => {
    const constants = await source('util/Constants.js');
    for (const event of [
      'qr',
      'authenticated',
      'auth_failure',
      'ready',
      'message',
      'message_create',
      'message_ack',
      'change_state',
      'disconnected',
      'code',
    ]) {
      expect(constants, event).to.contain(`'${event}'`);
    }
    const client = await source('Client.js');
    expect(client).to.contain("'Max qrcode retries reached'");
    expect(client).to.contain("this.emit(Events.DISCONNECTED, 'LOGOUT')");
    expect(client).to.contain('this.emit(Events.MESSAGE_ACK, message, ack)');
  });

  it('reads every send option wakit passes, under that name', async () => {
    const body = methodBody(await source('Client.js'), 'sendMessage');
    const bindings = new FakeWhatsAppNetwork().bindings();
    const keys = new Set<string>();
    const text = toSendArguments(bindings, {
      kind: 'text',
      text: 'x',
      options: {
        linkPreview: false,
        sendSeen: false,
        mentions: ['15550001111@c.us'],
        quotedMessageId: 'true_a_b',
      },
    })[1];
    for (const kind of ['image', 'sticker', 'document'] as const) {
      const media = { data: Buffer.from('x'), mimetype: 'image/png', filename: 'x.png' };
      Object.keys(toSendArguments(bindings, { kind, media, caption: 'c' })[1]).forEach((k) =>
        keys.add(k),
      );
    }
    Object.keys(text).forEach((k) => keys.add(k));
    expect([...keys].sort()).to.deep.equal(
      [
        'caption',
        'linkPreview',
        'mentions',
        'quotedMessageId',
        'sendMediaAsDocument',
        'sendMediaAsSticker',
        'sendSeen',
      ].sort(),
    );
    for (const key of keys) expect(body, key).to.contain(`options.${key}`);
  });

  it('accepts the Client options wakit builds', async () => {
    const constants = await source('util/Constants.js');
    const options = buildClientOptions(
      engineSchema.parse({ type: 'whatsapp-web.js', webVersion: '2.3000.1' }) as WwebjsEngineConfig,
      { authStrategy: null, workDir: '/w', executablePath: '/c', sandbox: true },
      pino({ level: 'silent' }),
    );
    for (const key of Object.keys(options).filter((k) => k !== 'authStrategy')) {
      expect(constants, key).to.match(new RegExp(`\\n    ${key}:`));
    }
    const cache = await source('webCache/WebCacheFactory.js');
    expect(cache).to.contain("case 'remote'");
    expect(cache).to.contain("case 'local'");
  });

  it('calls the RemoteAuth store as { session } objects, as our adapter implements', async () => {
    const remote = await source('authStrategies/RemoteAuth.js');
    expect(remote).to.contain('this.store.sessionExists({');
    expect(remote).to.contain('await this.store.save({');
    expect(remote).to.contain('await this.store.extract({');
    expect(remote).to.contain('await this.store.delete({ session: this.sessionName })');
    expect(remote).to.contain('backupSyncIntervalMs < 60000');
  });
});
