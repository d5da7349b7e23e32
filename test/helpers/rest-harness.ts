/** Fixtures for REST tests: an SDK on the simulator with a REST server on a loopback port. */
import { restHostOf } from './rest-host.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import {
  createSdk,
  type BotClient,
  type Sdk,
  type SdkOptions,
  type WakitConfigInput,
} from '../../src/index.js';
import type { ClusterView } from '../../src/entries/cluster.js';
import { createRestServer, type RestServer } from '../../plugins/rest/server.js';
import type { RestOptionsInput } from '../../plugins/rest/options.js';
import { ContractChecker } from './openapi-contract.js';
// the simulator's entry: `sdk.simulator` from createSdk on, before start (docs/simulator.md)
import { simulatorRoutes } from '../../src/entries/simulator.js';
import { BUNDLED_ROUTE_PREFIX, RouteRegistry } from '../../src/plugins/routes.js';

export const ADMIN_TOKEN = 'admin-token-0123456789abcdef0123456789';
export const SCOPED_TOKEN = 'scoped-token-0123456789abcdef0123456789';
export const BOT_PHONE = '15550000001';
export const BOT_ID = `${BOT_PHONE}@c.us`;
export const OTHER_PHONE = '15550000002';
export const CONTACT = '15550001111';
export const CONTACT_ID = `${CONTACT}@c.us`;

export interface RestFixture {
  sdk: Sdk;
  server: RestServer;
  /** The routes of plugins the server mounts (the simulator's). */
  pluginRoutes: RouteRegistry;
  url: string;
  dir: string;
  /** Fetch relative to the server with the admin token unless `token: null` / another token. */
  request(method: string, route: string, init?: RequestOptions): Promise<TestResponse>;
  /** Links `name` through the simulator (initialize + scan) and waits for READY. */
  link(name: string, phone?: string): Promise<BotClient>;
  close(): Promise<void>;
}

export interface RequestOptions {
  token?: string | null;
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface FixtureOptions {
  config?: Partial<WakitConfigInput>;
  rest?: Partial<RestOptionsInput>;
  /** Clients named in config (created by sdk.start()); default ['bot', 'other']. */
  clients?: string[];
  /** Start the SDK (initializes clients); default false: tests initialize over REST. */
  start?: boolean;
  logger?: Logger;
  /** A hand-made fleet view the REST server gets as `host.cluster` (fleet tests). */
  cluster?: ClusterView;
  /** Replaces kernel services (e.g. the CLOCK with a VirtualClock). */
  services?: SdkOptions['services'];
}

export async function restFixture(options: FixtureOptions = {}): Promise<RestFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-rest-'));
  const logger = options.logger ?? pino({ level: 'silent' });
  const sdk = createSdk(
    {
      engine: { type: 'simulator', ackDelayMs: 5 },
      auth: { type: 'local', dataPath: dir },
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 },
      clients: options.clients ?? ['bot', 'other'],
      ...options.config,
    },
    { logger, ...(options.services ? { services: options.services } : {}) },
  );
  for (const name of sdk.config.clients) sdk.createClient({ name });
  sdk.simulator.phone(CONTACT, { pushname: 'Alice' });
  // the simulator's routes, as its plugin adds them when the REST plugin runs in an Sdk
  const pluginRoutes = new RouteRegistry();
  simulatorRoutes(
    {
      route: (route) =>
        void pluginRoutes.add('simulator', route, `${BUNDLED_ROUTE_PREFIX}/simulator`),
    },
    sdk.simulator,
    (client) => sdk.events.qr(client),
  );
  const server = await createRestServer({
    sdk: restHostOf(sdk, { fleet: options.cluster }),
    pluginRoutes,
    logger,
    options: {
      port: 0,
      tokens: [
        { token: ADMIN_TOKEN, clients: ['*'] },
        { token: SCOPED_TOKEN, clients: ['other'] },
      ],
      sse: { heartbeatMs: 200 },
      ...options.rest,
    },
  });
  await server.listen();
  if (options.start) await sdk.start();
  const url = server.url;
  // Every exchange of `request` is checked against the document the server serves (taken from the
  // server itself, as GET /api/v1/openapi.json serves it, so that no request is logged or counted).
  const contract = await ContractChecker.for(structuredClone(server.openapi()));
  const fixture: RestFixture = {
    sdk,
    server,
    pluginRoutes,
    url,
    dir,
    async request(method, route, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const token = init.token === undefined ? ADMIN_TOKEN : init.token;
      if (token !== null) headers.authorization = `Bearer ${token}`;
      let body: string | Buffer | undefined = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${url}${route}`, { method, headers, body });
      const text = await response.text();
      const broken = contract.check({
        method,
        url: route,
        requestHeaders: headers,
        requestBody: body,
        status: response.status,
        responseHeaders: response.headers,
        text,
      });
      if (broken.length > 0) throw new Error(`OpenAPI contract broken:\n${broken.join('\n')}`);
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    async link(name, phone = name === 'other' ? OTHER_PHONE : BOT_PHONE) {
      const client = sdk.client(name);
      if (client.state === 'READY') return client;
      const qr = new Promise<string>((resolve) => client.once('qr', resolve));
      if (client.state === 'STOPPED' || client.state === 'FAILED') {
        const res = await fixture.request('POST', `/api/v1/clients/${name}/initialize`);
        if (res.status !== 202) throw new Error(`initialize answered ${res.status}`);
      }
      sdk.simulator.scan(await qr, { phone, pushname: `Bot ${name}` });
      await client.waitUntilReady({ timeoutMs: 5_000 });
      return client;
    },
    async close() {
      await server.close();
      await sdk.stop({ drainTimeoutMs: 100 });
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
  return fixture;
}

/** Reads an SSE stream: collects parsed events until `until` returns true or the deadline. */
export async function readEvents(
  url: string,
  init: { token?: string; headers?: Record<string, string> },
  until: (events: SseEvent[]) => boolean,
  timeoutMs = 5_000,
): Promise<{ events: SseEvent[]; comments: string[]; status: number }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events: SseEvent[] = [];
  const comments: string[] = [];
  try {
    const response = await fetch(url, {
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...init.headers,
      },
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      return { events, comments, status: response.status };
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let index: number;
        while ((index = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const event = parseBlock(block, comments);
          if (event) events.push(event);
        }
        if (until(events)) break;
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    return { events, comments, status: response.status };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: { id: string; event: string; client: string; at: string; data: Record<string, unknown> };
}

function parseBlock(block: string, comments: string[]): SseEvent | undefined {
  const event: Partial<SseEvent> & { raw?: string } = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('id: ')) event.id = line.slice(4);
    else if (line.startsWith('event: ')) event.event = line.slice(7);
    else if (line.startsWith('data: ')) event.raw = (event.raw ?? '') + line.slice(6);
  }
  if (event.raw === undefined) return undefined;
  return { id: event.id, event: event.event, data: JSON.parse(event.raw) as SseEvent['data'] };
}
