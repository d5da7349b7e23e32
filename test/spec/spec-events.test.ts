/**
 * SPEC.md, "Authentication", "Sessions" and "Events", on the simulator: the QR flow with its
 * events, both session strategies (`local`, `remote`), several clients, `message` and
 * `message.create`, `auth_failure`, `disconnected` with `session_expired`, `logout()`.
 */
import { expect } from 'chai';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ClientState, Message, Sdk, SendResult, WakitError } from '../../src/index.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { rejection } from '../helpers/rejection.js';
import { BOT_ID, BOT_PHONE, linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

/** The fields of "Message object (received)". */
const SPEC_FIELDS = [
  'id',
  'body',
  'from',
  'to',
  'timestamp',
  'hasMedia',
  'isGroup',
  'broadcast',
  'hasQuotedMsg',
  'fromMe',
  'type',
  'ack',
];

describe('SPEC: authentication, sessions and events (simulator)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sdk: Sdk;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    sdk = simulatorSdk(dir);
  });
  afterEach(async () => {
    await sdk.stop();
    await cleanup();
  });

  it('QR flow: initialize() → qr (string) → scan → authenticated (session) → ready; sends in the ready handler', async () => {
    const client = sdk.createClient({ name: 'sales' });
    const alice = sdk.simulator.phone('15550001111');
    const events: string[] = [];
    const states: ClientState[] = [];
    client.on('state', ({ to }) => states.push(to));
    client.on('qr', (qr) => {
      events.push('qr');
      expect(qr).to.be.a('string').with.length.above(20);
      sdk.simulator.scan(qr, { phone: BOT_PHONE }); // the QR code is scanned with the phone
    });
    client.on('authenticated', (session) => {
      events.push('authenticated');
      expect(session).to.include({ client: 'sales', restored: false });
      expect(JSON.stringify(session)).to.not.match(/token|secret/i);
    });
    let sent: Promise<SendResult> | undefined;
    client.on('ready', (...args: unknown[]) => {
      events.push('ready');
      expect(args).to.deep.equal([]);
      // Registering send operations inside a `ready` handler is the shown pattern
      sent = client.sendTextMessage({ to: '15550001111@c.us', text: 'Ready!' });
    });
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    expect(events).to.deep.equal(['qr', 'authenticated', 'ready']);
    expect(states).to.deep.equal(['STARTING', 'SCAN_QR', 'AUTHENTICATED', 'READY']);
    expect(client.info()).to.deep.include({
      name: 'sales',
      state: 'READY',
      engine: 'simulator',
      me: { id: BOT_ID, pushname: client.info().me?.pushname },
    });
    expect((await sent!).id).to.be.a('string');
    expect(alice.inbox.map((m) => m.body)).to.deep.equal(['Ready!']);
  });

  it('auth.type local: the session is saved at auth.dataPath (privately), a later start needs no QR, logout() invalidates it', async () => {
    await linkedClient(sdk, 'sales');
    await sdk.stop();
    // session data is sensitive: stored for this user only (directories 0700, files 0600)
    const saved = await readdir(dir, { recursive: true, withFileTypes: true });
    expect(saved.filter((entry) => entry.isFile())).to.have.length.above(0);
    for (const entry of saved) {
      const mode = (await stat(path.join(entry.parentPath, entry.name))).mode & 0o777;
      expect(mode.toString(8), entry.name).to.equal(entry.isDirectory() ? '700' : '600');
    }

    const second = simulatorSdk(dir); // { auth: { type: 'local', dataPath } }
    const client = second.createClient({ name: 'sales' });
    let qrs = 0;
    client.on('qr', () => qrs++);
    const session = new Promise<{ restored: boolean }>((resolve) =>
      client.once('authenticated', resolve),
    );
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs).to.equal(0);
    expect((await session).restored).to.equal(true);

    const reasons: string[] = [];
    client.on('disconnected', (r) => reasons.push(r));
    await client.logout();
    expect(client.state).to.equal('STOPPED');
    expect(reasons).to.deep.equal(['logout']);
    await second.stop();

    const third = simulatorSdk(dir);
    try {
      const fresh = third.createClient({ name: 'sales' });
      const qr = new Promise<string>((resolve) => fresh.once('qr', resolve));
      await fresh.initialize();
      expect(await qr).to.be.a('string');
    } finally {
      await third.stop();
    }
  });

  it('auth.type remote with auth.storage { projectId, bucket, path }: the same flow, the session shared by another server', async () => {
    const gcs = await FakeGcsServer.start();
    const remote = (work: string) =>
      simulatorSdk(work, {
        auth: {
          type: 'remote',
          // apiEndpoint points the client at a local fake of the object store (tests only)
          storage: {
            projectId: 'shop',
            bucket: 'sessions-bucket',
            path: 'wakit',
            apiEndpoint: gcs.url,
          },
          dataPath: work,
        },
      });
    const first = remote(path.join(dir, 'server-a'));
    try {
      const events: string[] = [];
      const client = first.createClient({ name: 'sales' });
      for (const event of ['qr', 'authenticated', 'ready'] as const) {
        client.on(event, () => events.push(event));
      }
      client.on('qr', (qr) => first.simulator.scan(qr, { phone: BOT_PHONE }));
      await client.initialize();
      await client.waitUntilReady({ timeoutMs: 5_000 });
      expect(events).to.deep.equal(['qr', 'authenticated', 'ready']);
    } finally {
      await first.stop();
    }
    expect(gcs.list('sessions-bucket', 'wakit/').map((o) => o.name)).to.have.length.above(0);

    const second = remote(path.join(dir, 'server-b'));
    try {
      const client = second.createClient({ name: 'sales' });
      let qrs = 0;
      client.on('qr', () => qrs++);
      await client.initialize();
      await client.waitUntilReady({ timeoutMs: 5_000 });
      expect(qrs).to.equal(0);
    } finally {
      await second.stop();
      await gcs.close();
    }
  });

  it('several clients side by side: each its own name, session and QR code', async () => {
    const qrs: Record<string, string> = {};
    const a = sdk.createClient({ name: 'a' });
    const b = sdk.createClient({ name: 'b' });
    a.on('qr', (qr) => {
      qrs.a = qr;
      sdk.simulator.scan(qr, { phone: '15550000011' });
    });
    b.on('qr', (qr) => {
      qrs.b = qr;
      sdk.simulator.scan(qr, { phone: '15550000022' });
    });
    await Promise.all([a.initialize(), b.initialize()]);
    await Promise.all([a.waitUntilReady(), b.waitUntilReady()]);
    expect(qrs.a).to.not.equal(qrs.b);
    expect(a.info().me?.id).to.equal('15550000011@c.us');
    expect(b.info().me?.id).to.equal('15550000022@c.us');
    await a.logout();
    expect(b.state).to.equal('READY');
    const alice = sdk.simulator.phone('15550001111');
    await b.sendTextMessage({ to: alice.id, text: 'from b' });
    expect(alice.inbox.at(-1)?.author).to.equal('15550000022@c.us');
    expect(() => sdk.createClient({ name: 'a' }))
      .to.throw()
      .with.property('code', 'CLIENT_EXISTS');
  });

  it('message is for new messages; message.create reports created ones, fromMe true for the own', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const messages: Message[] = [];
    const created: Message[] = [];
    client.on('message', (m) => messages.push(m));
    client.on('message.create', (m) => created.push(m));
    await alice.send(BOT_ID, 'hello bot');
    await client.sendTextMessage({ to: '15550001111@c.us', text: 'hello alice' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(messages.map((m) => [m.body, m.fromMe])).to.deep.equal([['hello bot', false]]);
    expect(created.map((m) => [m.body, m.fromMe])).to.deep.equal([
      ['hello bot', false],
      ['hello alice', true],
    ]);
    // handlers of both receive the message object of the specification
    for (const m of [...messages, ...created]) {
      expect(m).to.include.keys(...SPEC_FIELDS);
      expect(typeof m.reply).to.equal('function');
    }
  });

  it('auth_failure: authentication failed, the handler gets the error (Errors: authentication failure)', async () => {
    await linkedClient(sdk, 'sales');
    await sdk.stop();
    const again = simulatorSdk(dir);
    try {
      again.simulator.failAuth('sales');
      const client = again.createClient({ name: 'sales' });
      const failure = new Promise<WakitError>((resolve) => client.once('auth_failure', resolve));
      await client.initialize();
      const error = await failure;
      expect(error).to.be.instanceOf(Error);
      expect(error.code).to.equal('AUTH_FAILED');
      expect(client.state).to.equal('FAILED');
      const waiting = await rejection(client.waitUntilReady({ timeoutMs: 100 }));
      expect(waiting.code).to.equal('AUTH_FAILED');
    } finally {
      await again.stop();
    }
  });

  it('disconnected with reason session_expired (Errors: session expired); initialize() again re-authenticates by QR', async () => {
    const client = await linkedClient(sdk, 'sales');
    const reason = new Promise<string>((resolve) => client.once('disconnected', resolve));
    sdk.simulator.expireSession('sales');
    expect(await reason).to.equal('session_expired');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.state).to.equal('STOPPED');
    expect(client.info().lastDisconnect?.reason).to.equal('session_expired');
    const send = await rejection(client.sendTextMessage({ to: '15550001111@c.us', text: 'x' }));
    expect(send.code).to.equal('CLIENT_NOT_READY');
    const qr = new Promise<string>((resolve) => client.once('qr', resolve));
    await client.initialize();
    expect(await qr).to.be.a('string'); // linkedClient's qr handler scans it again
    await client.waitUntilReady({ timeoutMs: 5_000 });
    expect(client.state).to.equal('READY');
  });
});
