/**
 * The Engine contract: what every Engine implementation (simulator, whatsapp-web.js) must do, as
 * mocha blocks. An implementation's test file calls `describeEngineContract(title, makeHarness)`;
 * the harness hides how that engine is driven (scanning a QR, a phone writing to the bot, ...).
 *
 * Each test gets a fresh harness and calls `cleanup()` after it. Timing: real timers, generous
 * deadlines; harnesses should configure short ack delays.
 */
import { expect } from 'chai';
import type {
  DisconnectReason,
  MediaFile,
  MessageData,
  MediaKind,
  AckUpdate,
} from '../../src/engines/types.js';
import type { Engine, EngineEventName, EngineEvents } from '../../src/engines/engine.js';
import { WakitError, type ErrorCode } from '../../src/errors/index.js';

export interface EngineHarness {
  /** A fresh engine for client `clientName`, not started, over an empty session store. */
  engine: Engine;
  /** Complete linking for a shown QR code (a phone scans it). */
  link(qr: string): Promise<void>;
  /** A chat id (`@c.us`) the linked account can send to and receive from. */
  contact: string;
  /** A well-formed chat id that does not exist on the network. */
  unknownChat: string;
  /** A group the linked account may not send to (not admin of an admins-only group). */
  restrictedGroup: string;
  /** Someone (`from`, a chat id such as `contact`) sends a text to the linked account. */
  receiveText(from: string, text: string): Promise<void>;
  /** Someone sends media to the linked account. */
  receiveMedia(from: string, media: MediaFile & { caption?: string }): Promise<void>;
  /** The connection drops with this reason (the network/browser side, not `stop()`). */
  dropConnection(reason: DisconnectReason): void;
  /** A new engine for the same client and the same session store (a process restart). */
  reopen(): Promise<Engine>;
  /** The saved session bytes, or null when none is saved. */
  readSavedSession(): Promise<Buffer | null>;
  /** Stop every engine made by this harness and release everything. */
  cleanup(): Promise<void>;
  /** How long to wait for an event (default 4 s; a real browser under load needs more). */
  deadlineMs?: number;
}

const DEADLINE_MS = 4_000;

/** Resolves with the args of the next `event` matching `predicate`; rejects after `timeoutMs`. */
export function nextEvent<E extends EngineEventName>(
  engine: Engine,
  event: E,
  predicate: (...args: EngineEvents[E]) => boolean = () => true,
  timeoutMs = DEADLINE_MS,
): Promise<EngineEvents[E]> {
  return new Promise((resolve, reject) => {
    const listener = (...args: EngineEvents[E]) => {
      if (!predicate(...args)) return;
      clearTimeout(timer);
      engine.off(event, listener);
      resolve(args);
    };
    const timer = setTimeout(() => {
      engine.off(event, listener);
      reject(new Error(`no "${event}" event within ${timeoutMs} ms`));
    }, timeoutMs);
    engine.on(event, listener);
  });
}

/** Every event an engine emits, in order (for "nothing after stop" and ordering checks). */
export function recordEvents(engine: Engine): Array<{ event: EngineEventName; args: unknown[] }> {
  const seen: Array<{ event: EngineEventName; args: unknown[] }> = [];
  const names: EngineEventName[] = [
    'qr',
    'authenticated',
    'auth_failure',
    'ready',
    'disconnected',
    'message',
    'message.create',
    'message.ack',
  ];
  for (const event of names) engine.on(event, (...args: unknown[]) => seen.push({ event, args }));
  return seen;
}

/** Asserts that `promise` rejects with a WakitError of `code`. */
export async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<WakitError> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(WakitError);
    expect((error as WakitError).code).to.equal(code);
    return error as WakitError;
  }
  expect.fail(`expected a ${code} WakitError, got success`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** start → first qr → link → authenticated → ready. */
export async function startAndLink(harness: EngineHarness, engine = harness.engine): Promise<void> {
  const qr = nextEvent(engine, 'qr', undefined, harness.deadlineMs);
  const ready = nextEvent(engine, 'ready', undefined, harness.deadlineMs);
  await engine.start();
  await harness.link((await qr)[0]);
  await ready;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const MEDIA: Record<MediaKind, { media: MediaFile; caption?: string }> = {
  image: { media: { data: PNG, mimetype: 'image/png', filename: 'dot.png' }, caption: 'an image' },
  video: {
    media: { data: Buffer.from('fake mp4 bytes'), mimetype: 'video/mp4', filename: 'clip.mp4' },
    caption: 'a video',
  },
  audio: {
    media: { data: Buffer.from('fake ogg bytes'), mimetype: 'audio/ogg', filename: 'voice.ogg' },
  },
  document: {
    media: {
      data: Buffer.from('%PDF-1.4 fake'),
      mimetype: 'application/pdf',
      filename: 'report.pdf',
    },
    caption: 'a document',
  },
  sticker: {
    media: {
      data: Buffer.from('RIFF fake webp'),
      mimetype: 'image/webp',
      filename: 'sticker.webp',
    },
  },
};

export function describeEngineContract(
  title: string,
  makeHarness: () => Promise<EngineHarness>,
): void {
  describe(`Engine contract: ${title}`, function () {
    this.timeout(30_000);
    let h: EngineHarness;

    beforeEach(async () => {
      h = await makeHarness();
    });
    afterEach(async () => {
      await h.cleanup();
    });

    describe('linking', () => {
      it('start → qr → link → authenticated({ restored: false }) → ready, and me() is set', async () => {
        const events = recordEvents(h.engine);
        expect(h.engine.me()).to.equal(null);
        const qr = nextEvent(h.engine, 'qr', undefined, h.deadlineMs);
        const ready = nextEvent(h.engine, 'ready', undefined, h.deadlineMs);
        await h.engine.start();
        const [code] = await qr;
        expect(code).to.be.a('string').with.length.greaterThan(20);
        await h.link(code);
        await ready;
        const order = events.map((e) => e.event).filter((e) => e !== 'qr');
        expect(order.slice(0, 2)).to.deep.equal(['authenticated', 'ready']);
        expect(events.find((e) => e.event === 'authenticated')?.args[0]).to.deep.equal({
          restored: false,
        });
        const me = h.engine.me();
        expect(me?.id).to.match(/^\d+@c\.us$/);
        expect(me?.pushname).to.be.a('string');
        expect(await h.readSavedSession()).to.be.instanceOf(Buffer);
      });

      it('sending before the engine is ready fails with CLIENT_NOT_READY', async () => {
        await expectCode(
          h.engine.send(h.contact, { kind: 'text', text: 'hi', options: {} }),
          'CLIENT_NOT_READY',
        );
      });

      it('restarts from the saved session without a QR code', async () => {
        await startAndLink(h);
        await h.engine.stop();
        expect(await h.readSavedSession()).to.be.instanceOf(Buffer);
        const again = await h.reopen();
        const events = recordEvents(again);
        const ready = nextEvent(again, 'ready', undefined, h.deadlineMs);
        await again.start();
        await ready;
        expect(events.map((e) => e.event)).to.deep.equal(['authenticated', 'ready']);
        expect(events[0].args[0]).to.deep.equal({ restored: true });
        expect(again.me()?.id).to.match(/^\d+@c\.us$/);
      });

      it('logout deletes the saved session and emits nothing after', async () => {
        await startAndLink(h);
        const events = recordEvents(h.engine);
        await h.engine.logout();
        await sleep(100);
        expect(events).to.deep.equal([]);
        expect(await h.readSavedSession()).to.equal(null);
        const again = await h.reopen();
        const qr = nextEvent(again, 'qr', undefined, h.deadlineMs);
        await again.start();
        await qr;
      });
    });

    describe('sending', () => {
      beforeEach(() => startAndLink(h));

      it('sends text (with every option) and emits message_create fromMe', async () => {
        const created = nextEvent(h.engine, 'message.create', (m) => m.fromMe);
        const result = await h.engine.send(h.contact, {
          kind: 'text',
          text: 'hello there https://example.com',
          options: { linkPreview: false, sendSeen: true, mentions: [h.contact] },
        });
        expect(result.id).to.be.a('string');
        expect(result.id.startsWith(`true_${h.contact}_`)).to.equal(true);
        const [message] = await created;
        expect(message).to.include({
          id: result.id,
          fromMe: true,
          to: h.contact,
          chatId: h.contact,
          type: 'chat',
        });
        expect(message.body).to.equal('hello there https://example.com');
        expect(message.from).to.equal(h.engine.me()?.id);
      });

      for (const kind of ['image', 'video', 'audio', 'document', 'sticker'] as const) {
        it(`sends ${kind} media and emits message_create with hasMedia`, async () => {
          const created = nextEvent(h.engine, 'message.create', (m) => m.fromMe && m.hasMedia);
          const { media, caption } = MEDIA[kind];
          const result = await h.engine.send(h.contact, { kind, media, caption });
          expect(result.id.startsWith(`true_${h.contact}_`)).to.equal(true);
          const [message] = await created;
          expect(message.id).to.equal(result.id);
          expect(message.hasMedia).to.equal(true);
          expect(kind === 'audio' ? ['audio', 'ptt'] : [kind]).to.include(message.type);
        });
      }

      it('reports acks for a sent message, never going backwards', async () => {
        const acks: AckUpdate[] = [];
        h.engine.on('message.ack', (update) => acks.push(update));
        const result = await h.engine.send(h.contact, {
          kind: 'text',
          text: 'ack me',
          options: {},
        });
        await nextEvent(h.engine, 'message.ack', (u) => u.messageId === result.id && u.ack >= 2);
        const mine = acks.filter((u) => u.messageId === result.id);
        expect(mine[0].chatId).to.equal(h.contact);
        const values = mine.map((u) => u.ack);
        expect([...values].sort()).to.deep.equal(values);
      });

      it('quotes a message by id', async () => {
        const incoming = nextEvent(h.engine, 'message');
        await h.receiveText(h.contact, 'quote me');
        const [original] = await incoming;
        const created = nextEvent(h.engine, 'message.create', (m) => m.fromMe);
        await h.engine.send(h.contact, {
          kind: 'text',
          text: 'reply',
          options: { quotedMessageId: original.id },
        });
        const [message] = await created;
        expect(message.hasQuotedMsg).to.equal(true);
      });

      it('unknown chats fail with CHAT_NOT_FOUND', async () => {
        await expectCode(
          h.engine.send(h.unknownChat, { kind: 'text', text: 'x', options: {} }),
          'CHAT_NOT_FOUND',
        );
      });

      it('resolveContact: a registered person gives its phone, an unknown one isRegistered false', async () => {
        const known = await h.engine.ops.contacts.resolve(h.contact);
        expect(known).to.include({ id: h.contact, phone: h.contact, isRegistered: true });
        expect(await h.engine.ops.contacts.resolve(h.unknownChat)).to.deep.equal({
          id: h.unknownChat,
          isRegistered: false,
        });
      });

      it('chats: messages make a chat with unread count and history; numbers; unknown chats', async () => {
        await h.receiveText(h.contact, 'one');
        await h.receiveText(h.contact, 'two');
        const unread = await h.engine.ops.chats.get(h.contact);
        expect(unread).to.include({ id: h.contact, isGroup: false, unreadCount: 2 });
        expect(unread.lastMessage).to.include({ body: 'two', fromMe: false });
        await h.engine.send(h.contact, { kind: 'text', text: 'three', options: {} });
        expect(await h.engine.ops.chats.get(h.contact)).to.include({ unreadCount: 0 });
        expect((await h.engine.ops.chats.list()).map((c) => c.id)).to.include(h.contact);
        const latest = await h.engine.ops.chats.fetchMessages(h.contact, { limit: 2 });
        expect(latest.map((m) => [m.body, m.fromMe])).to.deep.equal([
          ['three', true],
          ['two', false],
        ]);
        const older = await h.engine.ops.chats.fetchMessages(h.contact, {
          limit: 5,
          before: latest[1].id,
        });
        expect(older.map((m) => m.body)).to.deep.equal(['one']);
        const digits = (id: string) => id.split('@')[0];
        expect(await h.engine.ops.contacts.getNumberId(digits(h.contact))).to.equal(h.contact);
        expect(await h.engine.ops.contacts.getNumberId(digits(h.unknownChat))).to.equal(null);
        await expectCode(h.engine.ops.chats.get(h.unknownChat), 'CHAT_NOT_FOUND');
        await expectCode(h.engine.ops.contacts.get(h.unknownChat), 'CHAT_NOT_FOUND');
        await expectCode(h.engine.ops.calls.reject('0123456789ABCDEF'), 'CALL_NOT_FOUND');
      });

      it('groups the account may not post to fail with PERMISSION_DENIED', async () => {
        await expectCode(
          h.engine.send(h.restrictedGroup, { kind: 'text', text: 'x', options: {} }),
          'PERMISSION_DENIED',
        );
      });
    });

    describe('receiving', () => {
      beforeEach(() => startAndLink(h));

      it('emits message and message_create with the spec fields for an incoming text', async () => {
        const before = Math.floor(Date.now() / 1000);
        const incoming = nextEvent(h.engine, 'message');
        const created = nextEvent(h.engine, 'message.create', (m) => !m.fromMe);
        await h.receiveText(h.contact, 'hello bot');
        const [message] = await incoming;
        expect(message).to.include({
          body: 'hello bot',
          from: h.contact,
          to: h.engine.me()?.id,
          chatId: h.contact,
          hasMedia: false,
          isGroup: false,
          broadcast: false,
          hasQuotedMsg: false,
          fromMe: false,
          type: 'chat',
        });
        expect(message.id)
          .to.be.a('string')
          .and.match(/^false_/);
        expect(message.timestamp)
          .to.be.a('number')
          .within(before - 5, Math.floor(Date.now() / 1000) + 5);
        expect([0, 1, 2, 3, 4]).to.include(message.ack);
        expect(message.author).to.equal(undefined);
        expect(message.sender.id).to.equal(h.contact);
        expect(message).to.include({ isChannel: false, isStatus: false });
        const [again] = await created;
        expect(again.id).to.equal(message.id);
      });

      it('downloads the media of a received message; text or unknown ids are MEDIA_NOT_FOUND', async () => {
        const incoming = nextEvent(h.engine, 'message', (m) => m.hasMedia);
        const { media } = MEDIA.image;
        await h.receiveMedia(h.contact, { ...media, caption: 'look' });
        const [message] = await incoming;
        expect(message.type).to.equal('image');
        expect(message.body).to.equal('look');
        expect(message.media?.mimetype).to.equal('image/png');
        const file = await h.engine.downloadMedia(message.id);
        expect(file.mimetype).to.equal('image/png');
        expect(Buffer.compare(file.data, PNG)).to.equal(0);

        const text = nextEvent(h.engine, 'message', (m) => !m.hasMedia);
        await h.receiveText(h.contact, 'no media here');
        const [plain] = await text;
        await expectCode(h.engine.downloadMedia(plain.id), 'MEDIA_NOT_FOUND');
        await expectCode(
          h.engine.downloadMedia(`false_${h.contact}_3EB0DOESNOTEXIST0000`),
          'MEDIA_NOT_FOUND',
        );
      });

      it('forwards a received message to a chat', async () => {
        const incoming = nextEvent(h.engine, 'message');
        await h.receiveText(h.contact, 'pass it on');
        const [message] = await incoming;
        const created = nextEvent(h.engine, 'message.create', (m: MessageData) => m.fromMe);
        const result = await h.engine.forward(message.id, h.contact);
        expect(result.id).to.be.a('string').with.length.greaterThan(0);
        const [forwarded] = await created;
        expect(forwarded.to).to.equal(h.contact);
        expect(forwarded.body).to.equal('pass it on');
      });
    });

    describe('disconnecting and stopping', () => {
      beforeEach(() => startAndLink(h));

      it('emits disconnected with the reason when the connection drops, keeping the session', async () => {
        const disconnected = nextEvent(h.engine, 'disconnected');
        h.dropConnection('connection_lost');
        expect((await disconnected)[0]).to.equal('connection_lost');
        expect(await h.readSavedSession()).to.be.instanceOf(Buffer);
        await expectCode(
          h.engine.send(h.contact, { kind: 'text', text: 'x', options: {} }),
          'CLIENT_NOT_READY',
        );
      });

      it('stop is idempotent, keeps the session and emits no events after (pending acks included)', async () => {
        await h.engine.send(h.contact, { kind: 'text', text: 'in flight', options: {} });
        const events = recordEvents(h.engine);
        await h.engine.stop();
        await h.engine.stop();
        await sleep(200);
        expect(events).to.deep.equal([]);
        expect(h.engine.me()).to.equal(null);
        expect(await h.readSavedSession()).to.be.instanceOf(Buffer);
        await expectCode(
          h.engine.send(h.contact, { kind: 'text', text: 'x', options: {} }),
          'CLIENT_NOT_READY',
        );
      });
    });
  });
}
