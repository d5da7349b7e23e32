/**
 * The wwebjs engine with the real whatsapp-web.js and the real system Chromium. This machine has
 * no internet: WhatsApp Web cannot load, which must surface as coded events, and no Chromium of
 * ours may survive `stop()`. Needs Debian's `chromium` (`apt-get install -y chromium`).
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import { engineSchema } from '../../src/config/schema.js';
import type { DisconnectReason } from '../../src/client/types.js';
import { defaultBindings } from '../../src/engines/wwebjs/default-bindings.js';
import { DEFAULT_BROWSER_PATHS, isExecutableFile } from '../../src/engines/wwebjs/browser.js';
import type { ClientLike, WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import { expectCode, nextEvent } from './engine-contract.js';

const logger = pino({ level: 'silent' });

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

function config(overrides: Record<string, unknown> = {}): WwebjsEngineConfig {
  return engineSchema.parse({ type: 'whatsapp-web.js', ...overrides }) as WwebjsEngineConfig;
}

describe('wwebjs engine on the real Chromium (no internet)', function () {
  this.timeout(60_000);
  let dir: string;
  let engine: WwebjsEngine | undefined;
  let clients: ClientLike[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-real-chromium-'));
    clients = [];
  });

  afterEach(async () => {
    await engine?.stop().catch(() => {});
    engine = undefined;
    for (const { pid } of processesMentioning(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  function makeEngine(overrides: Record<string, unknown>): WwebjsEngine {
    const store = new LocalSessionStore(dir);
    engine = new WwebjsEngine(
      config(overrides),
      { clientName: 'real', store, logger },
      {
        bindings: {
          ...defaultBindings,
          createClient: (options) => {
            const client = defaultBindings.createClient(options);
            clients.push(client);
            return client;
          },
        },
      },
    );
    return engine;
  }

  it('launches Chromium, reports the unreachable WhatsApp Web as disconnected(connection_lost), leaves no browser after stop()', async () => {
    const executablePath = installedChromium();
    const e = makeEngine({ executablePath, maxRestarts: 0, authTimeoutMs: 10_000 });
    const reasons: DisconnectReason[] = [];
    e.on('disconnected', (reason) => reasons.push(reason));
    const disconnected = nextEvent(e, 'disconnected', () => true, 15_000);
    const gaveUp = nextEvent(e, 'auth_failure', () => true, 15_000);

    await e.start();
    const [reason] = await disconnected;
    expect(reason).to.equal('connection_lost');
    const [failure] = await gaveUp;
    expect(failure.code).to.equal('ENGINE_ERROR');
    expect(failure.message).to.match(/gave up after 0 restarts/);

    // Chromium really ran: whatsapp-web.js got a browser with a process.
    expect(clients).to.have.length(1);
    const pid = clients[0].pupBrowser?.process()?.pid;
    expect(pid, 'Chromium pid').to.be.a('number');

    await e.stop();
    expect(await noProcessesLeft(dir)).to.deep.equal([]);
    expect(reasons).to.deep.equal(['connection_lost']);
  });

  it('restarts with backoff, then gives up after maxRestarts, without leaking browsers', async () => {
    const executablePath = installedChromium();
    const e = makeEngine({
      executablePath,
      maxRestarts: 1,
      authTimeoutMs: 10_000,
      restartBackoffMs: { initial: 200, max: 400 },
    });
    const reasons: DisconnectReason[] = [];
    e.on('disconnected', (reason) => reasons.push(reason));
    const gaveUp = nextEvent(e, 'auth_failure', () => true, 30_000);
    await e.start();
    await gaveUp;
    expect(reasons).to.deep.equal(['connection_lost', 'connection_lost']);
    expect(clients).to.have.length(2);
    await e.stop();
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
      const e = makeEngine({
        executablePath,
        authTimeoutMs: 45_000,
        puppeteer: { args: hangingArgs() },
      });
      const events: string[] = [];
      e.on('disconnected', (reason) => events.push(reason));
      await e.start();
      const running = await waitFor(
        () => {
          const found = processesMentioning(dir);
          return found.length > 0 ? found : undefined;
        },
        15_000,
        'Chromium to appear in the process table',
      );
      expect(running.some((p) => p.args.includes('--disable-dev-shm-usage'))).to.equal(true);
      await e.stop();
      expect(await noProcessesLeft(dir)).to.deep.equal([]);
      expect(events).to.deep.equal([]);
    });

    it('the start watchdog (authTimeoutMs) reports connection_lost and cleans up', async () => {
      const executablePath = installedChromium();
      const e = makeEngine({
        executablePath,
        maxRestarts: 0,
        authTimeoutMs: 4_000,
        puppeteer: { args: hangingArgs() },
      });
      const disconnected = nextEvent(e, 'disconnected', () => true, 15_000);
      await e.start();
      expect((await disconnected)[0]).to.equal('connection_lost');
      expect(await noProcessesLeft(dir)).to.deep.equal([]);
      await e.stop();
    });
  });

  it('fails with BROWSER_NOT_FOUND (saying how to install one) when the executable is missing', async () => {
    const e = makeEngine({ executablePath: path.join(dir, 'no-such-chromium') });
    const error = await expectCode(e.start(), 'BROWSER_NOT_FOUND');
    expect(error.message).to.include('apt-get install chromium');
    expect(clients).to.have.length(0);
    await e.stop();
  });
});
