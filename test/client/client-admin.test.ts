import { expect } from 'chai';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareContent } from '../../src/entries/contract.js';
import type { BotClient, Sdk, WakitConfigInput } from '../../src/index.js';
import { pino } from 'pino';
import { createSdk, isWakitError } from '../../src/index.js';
import { FileClientRegistry } from '../../src/entries/kernel.js';
import { simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';
import { rejection } from '../helpers/rejection.js';

const CONTACT = '15550001111';

/** Every client created from now on links as `phone` (a new number per client) when it shows a QR. */
function autoScan(sdk: Sdk, phones: Record<string, string>, qrs: string[] = []): string[] {
  sdk.onClient((client: BotClient) => {
    client.on('qr', (qr) => {
      qrs.push(client.name);
      sdk.simulator.scan(qr, { phone: phones[client.name] ?? '15550000099' });
    });
  });
  return qrs;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('clients at run time (SDK)', function () {
  this.timeout(20_000);
  let dir: string;
  let dataPath: string;
  let cleanup: () => Promise<void>;
  const sdks: Sdk[] = [];
  const make = (overrides: Partial<WakitConfigInput> = {}): Sdk => {
    const sdk = simulatorSdk(dataPath, overrides);
    sdk.simulator.phone(CONTACT, { pushname: 'Alice' });
    sdks.push(sdk);
    return sdk;
  };

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    // a data path wakit creates itself (so it is made private)
    dataPath = path.join(dir, 'data', 'sessions');
  });
  afterEach(async () => {
    for (const sdk of sdks.splice(0)) await sdk.stop({ drainTimeoutMs: 100 });
    await cleanup();
  });

  it('add → QR → READY → send → restart without a QR → remove keeping the session → add again without a QR → remove deleting it', async () => {
    const sdk = make();
    const qrs = autoScan(sdk, { sales: '15550000011' });
    await sdk.start();

    const sales = await sdk.addClient({ name: 'sales' });
    expect(sdk.client('sales')).to.equal(sales);
    await sales.waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs).to.deep.equal(['sales']);
    const sent = await sales.sendTextMessage({ to: CONTACT, text: 'hello from sales' });
    expect(sent.id).to.be.a('string');
    const inbox = sdk.simulator.phone(CONTACT).inbox;
    expect(inbox.some((m) => m.body === 'hello from sales')).to.equal(true);

    const [listed] = sdk.listClients();
    expect(listed).to.include({ name: 'sales', state: 'READY', origin: 'api' });
    expect(listed.me?.id).to.equal('15550000011@c.us');
    expect(Number.isNaN(Date.parse(listed.createdAt ?? ''))).to.equal(false);

    const states: string[] = [];
    sales.on('state', ({ to }) => states.push(to));
    const restarted = await sdk.restartClient('sales');
    expect(restarted).to.equal(sales);
    await sales.waitUntilReady({ timeoutMs: 5_000 });
    expect(states[0]).to.equal('STOPPED');
    expect(states.at(-1)).to.equal('READY');
    expect(qrs, 'a restart restores the session').to.deep.equal(['sales']);

    const session = path.join(dataPath, 'sales');
    await sdk.removeClient('sales');
    expect(sales.state).to.equal('STOPPED');
    expect(sdk.clients).to.deep.equal([]);
    expect((await rejection(Promise.resolve().then(() => sdk.client('sales')))).code).to.equal(
      'CLIENT_NOT_FOUND',
    );
    expect(await exists(session), 'the session is kept').to.equal(true);
    expect((await rejection(sales.sendTextMessage({ to: CONTACT, text: 'x' }))).code).to.equal(
      'CLIENT_NOT_READY',
    );

    const again = await sdk.addClient({ name: 'sales' });
    expect(again).to.not.equal(sales);
    await again.waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs, 'the kept session is restored').to.deep.equal(['sales']);

    await sdk.removeClient('sales', { deleteSession: true });
    expect(await exists(session), 'the session is deleted').to.equal(false);
    const fresh = await sdk.addClient({ name: 'sales' });
    await fresh.waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs, 'a deleted session means a new QR').to.deep.equal(['sales', 'sales']);
  });

  it('clients added at run time come back after a restart on the same data path, with their settings', async () => {
    const first = make({ clients: ['main'] });
    autoScan(first, { main: '15550000010', sales: '15550000011' });
    await first.start();
    const sales = await first.addClient({
      name: 'sales',
      settings: { rest: { webhooks: [{ url: 'http://127.0.0.1:9/x', secret: 's'.repeat(16) }] } },
    });
    await sales.waitUntilReady({ timeoutMs: 5_000 });
    first.createClient({ name: 'scratch' });
    await first.stop();

    const second = make({ clients: ['main'] });
    const qrs = autoScan(second, {});
    await second.start();
    expect(second.clients.map((c) => c.name)).to.deep.equal(['main', 'sales']);
    expect(second.listClients().map((c) => [c.name, c.origin])).to.deep.equal([
      ['main', 'config'],
      ['sales', 'api'],
    ]);
    await second.client('sales').waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs, 'sales restored its session').to.deep.equal([]);
    expect(second.clientAdmin.settings('sales', 'rest')).to.deep.equal({
      webhooks: [{ url: 'http://127.0.0.1:9/x', secret: 's'.repeat(16) }],
    });
  });

  it('keeps the registry in <dataPath>/clients.json: file 0600 in a 0700 directory', async () => {
    const sdk = make();
    await sdk.addClient({ name: 'sales', settings: { mine: { n: 1 } } });
    const file = path.join(dataPath, 'clients.json');
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    expect((await stat(dataPath)).mode & 0o777).to.equal(0o700);
    expect((await stat(path.dirname(dataPath))).mode & 0o777).to.equal(0o700);
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      version: number;
      clients: unknown[];
    };
    expect(saved.version).to.equal(1);
    expect(saved.clients).to.have.length(1);
    expect(saved.clients[0]).to.deep.include({ name: 'sales', settings: { mine: { n: 1 } } });

    const savedNow = async () =>
      (JSON.parse(await readFile(file, 'utf8')) as { clients: { settings: unknown }[] }).clients;
    await sdk.clientAdmin.updateSettings('sales', 'mine', { n: 2 });
    expect((await savedNow())[0].settings).to.deep.equal({
      mine: { n: 2 },
    });
    await sdk.clientAdmin.updateSettings('sales', 'mine', undefined);
    expect((await savedNow())[0].settings).to.deep.equal({});
    await sdk.removeClient('sales');
    expect(await savedNow()).to.deep.equal([]);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
  });

  it('refuses bad names, names in use, and removing or configuring configured clients', async () => {
    const sdk = make({ clients: ['main'] });
    for (const name of ['', 'has space', 'a/b', '../x', 'x'.repeat(65), 42, undefined]) {
      const error = await rejection(sdk.addClient({ name: name as string }));
      expect(error.code, String(name)).to.equal('VALIDATION_FAILED');
    }
    // before start: a configured name is taken even though the client does not exist yet
    expect((await rejection(sdk.addClient({ name: 'main' }))).code).to.equal('CLIENT_EXISTS');
    await sdk.start();
    expect((await rejection(sdk.addClient({ name: 'main' }))).code).to.equal('CLIENT_EXISTS');
    const both = await Promise.allSettled([
      sdk.addClient({ name: 'twin' }),
      sdk.addClient({ name: 'twin' }),
    ]);
    expect(both.map((r) => r.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    const refused = both.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused?.reason).to.include({ code: 'CLIENT_EXISTS' });

    const notManaged = await rejection(sdk.removeClient('main'));
    expect(notManaged.code).to.equal('CLIENT_NOT_MANAGED');
    expect(notManaged.status).to.equal(409);
    expect(sdk.client('main').name).to.equal('main');
    expect((await rejection(sdk.clientAdmin.updateSettings('main', 'rest', {}))).code).to.equal(
      'CLIENT_NOT_MANAGED',
    );
    sdk.createClient({ name: 'coded' });
    expect((await rejection(sdk.clientAdmin.updateSettings('coded', 'rest', {}))).code).to.equal(
      'CLIENT_NOT_MANAGED',
    );
    expect((await rejection(sdk.removeClient('nobody'))).code).to.equal('CLIENT_NOT_FOUND');
    expect((await rejection(sdk.restartClient('nobody'))).code).to.equal('CLIENT_NOT_FOUND');
    expect((await rejection(sdk.addClient({ name: 'bad', settings: { x: 1n } }))).code).to.equal(
      'VALIDATION_FAILED',
    );
    // a code-created client may be removed (the application owns it)
    await sdk.removeClient('coded');
    expect(sdk.clients.map((c) => c.name)).to.deep.equal(['main', 'twin']);
  });

  it('a corrupt clients.json stops start-up with REGISTRY_CORRUPT and is left untouched', async () => {
    await mkdir(dataPath, { recursive: true, mode: 0o700 });
    const file = path.join(dataPath, 'clients.json');
    for (const body of ['{ not json', '{"version":1,"clients":[{"name":"a b"}]}', '[]']) {
      await writeFile(file, body, { mode: 0o600 });
      const sdk = make();
      const error = await rejection(sdk.start());
      expect(error.code, body).to.equal('REGISTRY_CORRUPT');
      expect(error.message).to.include(file);
      expect(await readFile(file, 'utf8')).to.equal(body);
      expect(sdk.phase).to.equal('failed');
    }
  });

  it('a registry that cannot be written refuses the add with REGISTRY_UNAVAILABLE and changes nothing', async () => {
    // clients.json is a directory: it can be neither read nor replaced
    await mkdir(path.join(dataPath, 'clients.json'), { recursive: true });
    const sdk = make();
    const error = await rejection(sdk.addClient({ name: 'sales' }));
    expect(error.code).to.equal('REGISTRY_UNAVAILABLE');
    expect(error.transient).to.equal(true);
    expect(sdk.clients).to.deep.equal([]);
  });

  it('removing a client fails its waiting sends and no longer lists it', async () => {
    const sdk = make({ queue: { holdUntilReady: true, minGapMs: 0, jitterMs: 0 } });
    await sdk.start();
    const held = await sdk.addClient({ name: 'held' });
    // not linked: the send is held until READY, then the client goes away
    const queued = await held.enqueue(prepareContent(`${CONTACT}@c.us`, 'later'));
    await sdk.removeClient('held');
    expect((await rejection(queued.result)).code).to.equal('SHUTTING_DOWN');
    expect(sdk.listClients()).to.deep.equal([]);
  });

  it('never logs what clients.json holds (webhook secrets), nor puts it in errors', async () => {
    const SECRET = 'never-log-this-secret-0123456789';
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
    const config = {
      engine: { type: 'simulator' as const },
      auth: { type: 'local' as const, dataPath },
    };
    const sdk = createSdk(config, { logger });
    sdks.push(sdk);
    await sdk.start();
    await sdk.addClient({ name: 'sales', settings: { rest: { webhooks: [{ secret: SECRET }] } } });
    await sdk.clientAdmin.updateSettings('sales', 'rest', { webhooks: [{ secret: `${SECRET}2` }] });
    await sdk.restartClient('sales');
    await sdk.removeClient('sales', { deleteSession: true });
    await sdk.addClient({ name: 'again', settings: { rest: { secret: SECRET } } });
    await sdk.stop();
    expect(lines.length).to.be.above(3);
    expect(lines.join('\n')).to.not.include(SECRET);

    // a corrupt file: the error names the file and where it is wrong, not its content
    const file = path.join(dataPath, 'clients.json');
    for (const body of [
      `{"secret":"${SECRET}"`,
      `{"version":1,"clients":[{"name":"${SECRET}!"}]}`,
    ]) {
      await writeFile(file, body);
      const error = await new FileClientRegistry(dataPath).list().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isWakitError(error, 'REGISTRY_CORRUPT'), body).to.equal(true);
      expect(JSON.stringify(error)).to.not.include(SECRET);
      expect(String((error as Error).message)).to.not.include(SECRET);
      expect((error as Error).cause).to.equal(undefined);
    }
  });
});
