/**
 * A whatsapp-web.js client driven through the SDK, with the real whatsapp-web.js and the real
 * system Chromium. This machine has no internet: WhatsApp Web cannot load, which must surface as
 * coded `disconnected` events and state changes (the client's supervisor reconnecting, then
 * giving up), and no Chromium of ours may survive `stop()`. Needs Debian's `chromium`
 * (`apt-get install -y chromium`).
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createSdk, type Sdk, type SdkOptions } from '../../src/index.js';
import type { BotClient } from '../../src/client/bot-client.js';
import type { ClientState, DisconnectReason } from '../../src/client/types.js';
import { engineSchema } from '../../src/config/schema.js';
import { defaultBindings } from '../../src/engines/wwebjs/default-bindings.js';
import { DEFAULT_BROWSER_PATHS, isExecutableFile } from '../../src/engines/wwebjs/browser.js';
import { createWwebjsEngineFactory } from '../../src/engines/wwebjs/index.js';
import type { ClientLike, WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { expectCode } from './engine-contract.js';

function installedChromium(): string {
  const env = process.env.PUPPETEER_EXECUTABLE_PATH;
  const found = [env, ...DEFAULT_BROWSER_PATHS].find((p) => p && isExecutableFile(p));
  if (!found) {
    throw new Error(
      `No Chromium found (${DEFAULT_BROWSER_PATHS.join(', ')}): run \`apt-get install -y chromium\` ` +
        'to run the real-browser tests',
    );
  }
  return found;
}

/** Live (non-zombie) processes whose command line mentions `marker`. */
function processesMentioning(marker: string): Array<{ pid: number; args: string }> {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .filter((m) => !m[2].startsWith('Z') && m[3].includes(marker))
    .map((m) => ({ pid: Number(m[1]), args: m[3] }));
}

async function noProcessesLeft(marker: string): Promise<Array<{ pid: number; args: string }>> {
  let left = processesMentioning(marker);
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 250));
    left = processesMentioning(marker);
  }
  return left;
}

/** A TCP server that accepts connections and never answers: a WhatsApp Web that hangs. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function observe(client: BotClient) {
  const seen = {
    states: [] as ClientState[],
    disconnects: [] as Array<{ reason: DisconnectReason }>,
  };
  client.on('state', ({ to }) => seen.states.push(to));
  client.on('disconnected', (reason) => seen.disconnects.push({ reason }));
  return seen;
}

describe('whatsapp-web.js client on the real Chromium (no internet)', function () {
  this.timeout(60_000);
  let dir: string;
  let sdk: Sdk | undefined;
  let clients: ClientLike[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-real-chromium-'));
    clients = [];
  });

  afterEach(async () => {
    await sdk?.stop().catch(() => {});
    sdk = undefined;
    for (const { pid } of processesMentioning(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * A client of an SDK on the whatsapp-web.js engine. `recordClients` builds the same engine
   * through the `engineFactory` seam with the real bindings, remembering each whatsapp-web.js
   * Client (to see its Chromium pid); otherwise the SDK's built-in factory is used.
   */
  function makeClient(
    engine: Record<string, unknown>,
    recordClients = false,
    reconnect: Record<string, unknown> = {},
  ): BotClient {
    const engineConfig = { type: 'whatsapp-web.js' as const, ...engine };
    const options: SdkOptions = {};
    if (recordClients) {
      options.engineFactory = createWwebjsEngineFactory(
        engineSchema.parse(engineConfig) as WwebjsEngineConfig,
        {
          bindings: {
            ...defaultBindings,
            createClient: (clientOptions) => {
              const client = defaultBindings.createClient(clientOptions);
              clients.push(client);
              return client;
            },
          },
        },
      );
    }
    sdk = createSdk(
      {
        engine: engineConfig,
        reconnect,
        auth: { type: 'local', dataPath: dir },
        log: { level: 'silent' },
      },
      options,
    );
    return sdk.createClient({ name: 'real' });
  }

  it('launches Chromium; unreachable WhatsApp Web → disconnected(connection_lost) within 15 s, retried past reconnect.maxAttempts (a cause a retry can cure), never FAILED; no browser after stop()', async () => {
    const executablePath = installedChromium();
    const client = makeClient({ executablePath, authTimeoutMs: 10_000 }, true, {
      maxAttempts: 1,
      initialDelayMs: 200,
      maxDelayMs: 400,
      jitter: 'none',
    });
    const seen = observe(client);
    await client.initialize();
    await waitFor(() => seen.disconnects[0], 15_000, 'the first disconnected event');
    expect(seen.disconnects[0].reason).to.equal('connection_lost');
    expect(seen.states.slice(0, 2)).to.deep.equal(['STARTING', 'DISCONNECTED']);

    // the reconnect ladder (issue 36): no network is retried until it comes back, so a third
    // start comes although maxAttempts is 1
    await waitFor(() => seen.disconnects[2], 45_000, 'a third disconnected event');
    expect(seen.states).to.not.include('FAILED');
    const reconnect = client.info().reconnect;
    expect(reconnect?.untilCured, JSON.stringify(reconnect)).to.equal(true);
    expect(['network', 'whatsapp_unreachable']).to.include(reconnect?.cause);

    // Chromium really ran, once per attempt: whatsapp-web.js got a browser with a process.
    expect(clients.length).to.be.at.least(3);
    for (const c of clients) expect(c.pupBrowser?.process()?.pid, 'Chromium pid').to.be.a('number');

    await client.stop();
    expect(client.state).to.equal('STOPPED');
    expect(await noProcessesLeft(dir)).to.deep.equal([]);
  });

  describe('when WhatsApp Web never answers', () => {
    let hang: Awaited<ReturnType<typeof silentServer>>;
    beforeEach(async () => {
      hang = await silentServer();
    });
    afterEach(() => hang.close());

    const hangingArgs = (): string[] => [
      `--host-resolver-rules=MAP web.whatsapp.com 127.0.0.1:${hang.port}`,
    ];

    it('stop() while Chromium is loading the page leaves no browser process', async () => {
      const executablePath = installedChromium();
      const client = makeClient({
        executablePath,
        authTimeoutMs: 45_000,
        puppeteer: { args: hangingArgs() },
      });
      const seen = observe(client);
      await client.initialize();
      const running = await waitFor(
        () => {
          const found = processesMentioning(dir);
          return found.length > 0 ? found : undefined;
        },
        15_000,
        'Chromium to appear in the process table',
      );
      expect(running.some((p) => p.args.includes('--disable-dev-shm-usage'))).to.equal(true);
      await client.stop();
      expect(await noProcessesLeft(dir)).to.deep.equal([]);
      expect(seen.disconnects.map((d) => d.reason)).to.deep.equal(['stopped']);
      expect(seen.states).to.deep.equal(['STARTING', 'STOPPED']);
    });

    it('the start watchdog (authTimeoutMs) → disconnected(connection_lost), retried even with reconnect.maxAttempts 0 (WhatsApp unreachable), browser cleaned up', async () => {
      const executablePath = installedChromium();
      const client = makeClient(
        { executablePath, authTimeoutMs: 4_000, puppeteer: { args: hangingArgs() } },
        false,
        { maxAttempts: 0, initialDelayMs: 200, maxDelayMs: 400, jitter: 'none' },
      );
      const seen = observe(client);
      await client.initialize();
      await waitFor(
        () => (processesMentioning(dir).length > 0 ? true : undefined),
        15_000,
        'Chromium to appear in the process table',
      );
      await waitFor(() => seen.disconnects[0], 15_000, 'disconnected');
      expect(seen.disconnects[0].reason).to.equal('connection_lost');
      await waitFor(() => (seen.states.length >= 3 ? true : undefined), 15_000, 'a second start');
      expect(seen.states.slice(0, 3)).to.deep.equal(['STARTING', 'DISCONNECTED', 'STARTING']);
      expect(client.info().reconnect?.cause).to.equal('whatsapp_unreachable');
      await client.stop();
      expect(await noProcessesLeft(dir)).to.deep.equal([]);
    });
  });

  it('a missing executable: initialize() rejects with BROWSER_NOT_FOUND (saying how to install one), the client is FAILED', async () => {
    // Through the seam: under mocha, the SDK's lazy import() of the engine loads a second copy of
    // src/ (test files are require()d), whose WakitError is another class than the supervisor's.
    const client = makeClient({ executablePath: path.join(dir, 'no-such-chromium') }, true);
    const error = await expectCode(client.initialize(), 'BROWSER_NOT_FOUND');
    expect(error.message).to.include('apt-get install chromium');
    expect(client.state).to.equal('FAILED');
    expect(processesMentioning(dir)).to.deep.equal([]);
    await client.stop();
  });
});
