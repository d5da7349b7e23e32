/** Fixtures for simulator tests: a network, a temp LocalSessionStore and the contract harness. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import type { Engine } from '../../src/engines/engine.js';
import type { SessionLease, SessionStore } from '../../src/auth/session-store.js';
import {
  SimulatorNetwork,
  type SimulatorEngine,
  type SimulatorEngineConfig,
} from '../../src/engines/simulator/index.js';
import type { EngineHarness } from '../engines/engine-contract.js';

export const BOT_NUMBER = '15550000001';
export const BOT_ID = `${BOT_NUMBER}@c.us`;
export const CONTACT_NUMBER = '15550001111';
export const silentLogger = pino({ level: 'silent' });

export async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'wakit-sim-'));
}

/** Deterministic randomness (mulberry32). */
export function seeded(seed = 42): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SimFixture {
  network: SimulatorNetwork;
  store: LocalSessionStore;
  dir: string;
  factory: SimulatorNetwork['engineFactory'] extends () => infer F ? F : never;
  engine(clientName?: string): SimulatorEngine;
  engines: Engine[];
  cleanup(): Promise<void>;
}

export async function simFixture(
  config: Partial<SimulatorEngineConfig> = {},
  dir?: string,
): Promise<SimFixture> {
  const ownDir = dir === undefined;
  const dataPath = dir ?? (await tempDir());
  const network = new SimulatorNetwork({
    config: { ackDelayMs: 5, ...config },
    logger: silentLogger,
    random: seeded(),
  });
  const store = new LocalSessionStore(dataPath);
  const factory = network.engineFactory();
  const engines: Engine[] = [];
  return {
    network,
    store,
    dir: dataPath,
    factory,
    engines,
    engine(clientName = 'bot') {
      const engine = factory({ clientName, store, logger: silentLogger });
      engines.push(engine);
      return engine;
    },
    async cleanup() {
      for (const engine of engines) await engine.stop();
      if (ownDir) await rm(dataPath, { recursive: true, force: true });
    },
  };
}

/** The contract harness for the simulator. */
export async function simHarness(): Promise<EngineHarness> {
  const fx = await simFixture();
  const { network } = fx;
  const contact = network.phone(CONTACT_NUMBER, { pushname: 'Alice' });
  network.group({
    id: '120363000000000001',
    name: 'Announcements',
    members: [BOT_NUMBER, '15550002222'],
    admins: ['15550002222'],
    adminsOnly: true,
  });
  const clientName = 'contract';
  let current = fx.engine(clientName);
  return {
    engine: current,
    link: (qr) => {
      network.scan(qr, { phone: BOT_NUMBER, pushname: 'Contract Bot' });
      return Promise.resolve();
    },
    contact: contact.id,
    unknownChat: '19990009999@c.us',
    restrictedGroup: '120363000000000001@g.us',
    receiveText: async (from, text) => {
      await network.phone(from).send(BOT_ID, text);
    },
    receiveMedia: async (from, media) => {
      await network.phone(from).send(BOT_ID, media);
    },
    dropConnection: (reason) => network.disconnect(clientName, reason),
    reopen: () => {
      current = fx.engine(clientName);
      return Promise.resolve(current);
    },
    readSavedSession: () => fx.store.read(clientName),
    cleanup: () => fx.cleanup(),
  };
}

/** A SessionStore in memory (for fake-timer tests: no file IO to wait for). */
export class MemorySessionStore implements SessionStore {
  readonly type = 'local' as const;
  readonly data = new Map<string, Buffer>();
  exists(client: string): Promise<boolean> {
    return Promise.resolve(this.data.has(client));
  }
  read(client: string): Promise<Buffer | null> {
    return Promise.resolve(this.data.get(client) ?? null);
  }
  write(client: string, data: Buffer): Promise<void> {
    this.data.set(client, Buffer.from(data));
    return Promise.resolve();
  }
  delete(client: string): Promise<void> {
    this.data.delete(client);
    return Promise.resolve();
  }
  acquire(): Promise<SessionLease> {
    return Promise.resolve({ release: () => Promise.resolve() });
  }
  workDir(): Promise<string> {
    return Promise.reject(new Error('MemorySessionStore has no work directory'));
  }
}

/** Lets pending promise callbacks run (works under fake timers: no timers involved). */
export async function flush(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

/** start → first QR → `network.scan` (as `phone` when given) → ready. */
export async function simLink(
  network: SimulatorNetwork,
  engine: Engine,
  phone?: string,
): Promise<void> {
  const qr = new Promise<string>((resolve) => engine.on('qr', resolve));
  const ready = new Promise<void>((resolve) => engine.on('ready', resolve));
  await engine.start();
  network.scan(await qr, phone === undefined ? {} : { phone });
  await ready;
}
