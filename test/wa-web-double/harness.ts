/**
 * The real whatsapp-web.js 1.34.7 in the real Chromium, driven by wakit's WwebjsEngine, on the
 * WhatsApp Web double. The engine is configured only as a user could configure it
 * (`webVersion` + `webVersionCache: { type: 'local', path }`); the bindings are the library's own
 * (`defaultBindings`), merely observed: each Client made is recorded so that the test can reach
 * its page (the phone side, `window.__waDouble`) and count the page's requests.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import type { Page, HTTPRequest } from 'puppeteer';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import type { SessionStore } from '../../src/auth/session-store.js';
import { engineSchema } from '../../src/config/schema.js';
import { defaultBindings } from '../../src/engines/wwebjs/default-bindings.js';
import { WwebjsEngine, createWwebjsEngineFactory } from '../../src/engines/wwebjs/index.js';
import { createSdk, type Sdk } from '../../src/index.js';
import type {
  ClientLike,
  WwebjsBindings,
  WwebjsEngineConfig,
} from '../../src/engines/wwebjs/types.js';
import { startAndLink, type EngineHarness } from '../engines/engine-contract.js';
import { NEWEST_BUILD, type DoubleBuild } from './builds.js';
import { writeBuild } from './page-builder.js';
import { DEFAULT_WORLD, type DoubleWorld } from './world.js';

/** The URL whatsapp-web.js loads and serves from its web cache (util/Constants.js:3). */
export const WHATSAPP_WEB = 'https://web.whatsapp.com/';

export interface DoubleHarnessOptions {
  build?: DoubleBuild;
  world?: DoubleWorld;
  clientName?: string;
  /** The session store; a LocalSessionStore in the harness's temp dir by default. */
  store?: (dir: string) => SessionStore;
  /** Extra engine config (merged before parsing). */
  engine?: Record<string, unknown>;
  /**
   * Benchmarks only: rewrites the Chromium flags wakit passes (to compare with puppeteer's
   * defaults); the engine's own launch is untouched otherwise.
   */
  rewriteArgs?: (args: string[]) => string[];
  logger?: Logger;
}

type PhoneApi = Record<string, (...args: never[]) => unknown>;

export class DoubleHarness {
  readonly clients: ClientLike[] = [];
  /** Every request any page of ours made, by URL, in order. */
  readonly requests: string[] = [];
  readonly engines: WwebjsEngine[] = [];
  readonly sdks: Sdk[] = [];
  readonly config: WwebjsEngineConfig;
  readonly store: SessionStore;
  readonly clientName: string;
  private readonly logger: Logger;
  private readonly rewriteArgs: DoubleHarnessOptions['rewriteArgs'];

  private constructor(
    readonly dir: string,
    readonly build: DoubleBuild,
    readonly world: DoubleWorld,
    options: DoubleHarnessOptions,
    buildsDir: string,
  ) {
    this.clientName = options.clientName ?? 'bot';
    this.rewriteArgs = options.rewriteArgs;
    this.logger =
      options.logger ?? pino({ level: process.env.WAKIT_DOUBLE_DEBUG ? 'debug' : 'silent' });
    this.store = options.store?.(dir) ?? new LocalSessionStore(path.join(dir, 'sessions'));
    this.config = engineSchema.parse({
      type: 'whatsapp-web.js',
      webVersion: build.version,
      webVersionCache: { type: 'local', path: buildsDir },
      authTimeoutMs: 30_000,
      ...options.engine,
    }) as WwebjsEngineConfig;
  }

  static async create(options: DoubleHarnessOptions = {}): Promise<DoubleHarness> {
    const dir = await mkdtemp(path.join(tmpdir(), 'wakit-double-'));
    const build = options.build ?? NEWEST_BUILD;
    const world = options.world ?? DEFAULT_WORLD;
    const buildsDir = await writeBuild(path.join(dir, 'builds'), build, world);
    return new DoubleHarness(dir, build, world, options, buildsDir);
  }

  private bindings(): WwebjsBindings {
    return observingBindings(this.clients, this.requests, this.rewriteArgs);
  }

  /**
   * A new engine for the client (a process start): same store, same double build; `overrides`
   * change its engine config (e.g. `compat`), as a user's config would.
   */
  engine(overrides: Record<string, unknown> = {}): WwebjsEngine {
    const config = engineSchema.parse({ ...this.config, ...overrides }) as WwebjsEngineConfig;
    const engine = new WwebjsEngine(
      config,
      { clientName: this.clientName, store: this.store, logger: this.logger },
      { bindings: this.bindings(), destroyTimeoutMs: 5_000 },
    );
    this.engines.push(engine);
    return engine;
  }

  /** What engine-contract.ts's `startAndLink` needs: the engine, the phone's scan, a deadline. */
  contractView(engine: WwebjsEngine, deadlineMs = 15_000): EngineHarness {
    return { engine, link: (qr: string) => this.link(qr), deadlineMs } as unknown as EngineHarness;
  }

  /** A new engine, started and linked by the phone side (qr → scan → authenticated → ready). */
  async linkedEngine(deadlineMs = 15_000): Promise<WwebjsEngine> {
    const engine = this.engine();
    await startAndLink(this.contractView(engine, deadlineMs));
    return engine;
  }

  /**
   * An SDK whose whatsapp-web.js clients run on the double: the engine section is what a user
   * would write; the factory is the engine's own, with the observed bindings.
   */
  sdk(config: Record<string, unknown> = {}): Sdk {
    const sdk = createSdk(
      {
        engine: {
          type: 'whatsapp-web.js',
          webVersion: this.build.version,
          webVersionCache: { type: 'local', path: path.join(this.dir, 'builds') },
        },
        auth: { type: 'local', dataPath: path.join(this.dir, 'sdk-sessions') },
        log: { level: process.env.WAKIT_DOUBLE_DEBUG ? 'debug' : 'silent' },
        ...config,
      },
      {
        engineFactory: createWwebjsEngineFactory(this.config, {
          bindings: this.bindings(),
          destroyTimeoutMs: 5_000,
        }),
      },
    );
    this.sdks.push(sdk);
    return sdk;
  }

  /** The page of the latest client, once it exists. */
  page(timeoutMs = 10_000): Promise<Page> {
    return latestPage(this.clients, timeoutMs);
  }

  /** Calls the phone side (`window.__waDouble[name](...args)`) in the latest page. */
  async phone<T = unknown>(name: string, ...args: unknown[]): Promise<T> {
    return callPhone<T>(await this.page(), name, args);
  }

  /** The process id of the latest client's Chromium. */
  browserPid(): number | undefined {
    return this.clients.at(-1)?.pupBrowser?.process()?.pid;
  }

  /**
   * The phone scans `qr` and links as the world's `me`. A person scans seconds after the QR shows,
   * by when whatsapp-web.js has finished `inject()` (its `change:hasSynced` listener is there): the
   * page itself never waits for it (a restore can sync first: the ready race).
   */
  async link(qr: string): Promise<void> {
    await this.until('window.__double.Socket.listenerCount("change:hasSynced") > 0');
    return this.phone('scan', qr);
  }

  /** Polls the latest page until `expression` holds there (its double loaded); fails after `timeoutMs`. */
  async until(expression: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const page = await this.page(timeoutMs);
    // before its navigation the page is about:blank, and a navigation destroys the context
    const holds = () =>
      page.evaluate(`Boolean(window.__double && (${expression}))`).catch(() => false);
    while ((await holds()) !== true) {
      if (Date.now() > deadline) throw new Error(`never true in the page: ${expression}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Requests that were not for the double itself (https://web.whatsapp.com/, served locally). */
  foreignRequests(): string[] {
    return this.requests.filter((url) => url !== WHATSAPP_WEB);
  }

  async cleanup(): Promise<void> {
    for (const sdk of this.sdks) await sdk.stop().catch(() => {});
    for (const engine of this.engines) await engine.stop().catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * LocalAuth's saved session is the Chromium profile (`<work dir>/session-<client>`); its bytes
 * here are the listing of the profile's IndexedDB, where the double keeps the linked state.
 */
export async function savedProfile(h: DoubleHarness): Promise<Buffer | null> {
  const profile = path.join(await h.store.workDir(h.clientName), `session-${h.clientName}`);
  const files = await readdir(path.join(profile, 'Default', 'IndexedDB'), {
    recursive: true,
  }).catch(() => null);
  return files && files.length > 0 ? Buffer.from(files.sort().join('\n')) : null;
}

/**
 * whatsapp-web.js's own bindings (`defaultBindings`), observed: each Client is pushed to
 * `clients`, and its page's requests to `requests` from the moment whatsapp-web.js sets up its web
 * cache (before it loads https://web.whatsapp.com/).
 */
export function observingBindings(
  clients: ClientLike[],
  requests: string[],
  rewriteArgs?: (args: string[]) => string[],
): WwebjsBindings {
  return {
    ...defaultBindings,
    createClient: (options) => {
      const puppeteer = options.puppeteer as { args?: string[] };
      if (rewriteArgs) puppeteer.args = rewriteArgs(puppeteer.args ?? []);
      const client = defaultBindings.createClient(options);
      const real = client as unknown as { initWebVersionCache(): Promise<void>; pupPage: Page };
      const original = real.initWebVersionCache.bind(real);
      real.initWebVersionCache = async () => {
        real.pupPage.on('request', (request: HTTPRequest) => requests.push(request.url()));
        if (process.env.WAKIT_DOUBLE_DEBUG) {
          real.pupPage.on('console', (m) => console.log(`[page ${m.type()}] ${m.text()}`));
          real.pupPage.on('pageerror', (e) => console.log('[page error]', e));
        }
        await original();
      };
      clients.push(client);
      return client;
    },
  };
}

/** The page of the latest of `clients`, once it exists. */
export async function latestPage(clients: ClientLike[], timeoutMs = 10_000): Promise<Page> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = (clients.at(-1) as unknown as { pupPage?: Page } | undefined)?.pupPage;
    if (page && !page.isClosed()) return page;
    if (Date.now() > deadline) throw new Error('no whatsapp-web.js page');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Calls the phone side (`window.__waDouble[name](...args)`) in `page`. */
export function callPhone<T>(page: Page, name: string, args: unknown[]): Promise<T> {
  return page.evaluate(
    (method, params) => {
      const api = (globalThis as unknown as { __waDouble: PhoneApi }).__waDouble;
      return (api[method] as (...a: unknown[]) => unknown)(...params);
    },
    name,
    args,
  ) as Promise<T>;
}
