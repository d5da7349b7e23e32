import { readdir } from 'node:fs/promises';
import { expect } from 'chai';
import type { Logger } from 'pino';
import { pino } from 'pino';
import { createSdk, type Sdk, type SdkOptions } from '../../src/index.js';
import { prepareContent } from '../../src/entries/contract.js';
import type { SessionLease, SessionStore } from '../../src/auth/session-store.js';
import { MemoryOutbox } from '../../src/queue/outbox/memory-outbox.js';
import type { OutboxEntry } from '../../src/queue/outbox/index.js';
import {
  CLOCK,
  CONFIG,
  LOGGER,
  OUTBOX,
  SESSION_STORE,
  inject,
  injectable,
  type Clock,
} from '../../src/kernel/public-tokens.js';
import { BOT_PHONE, linkedClient, tempDir } from '../helpers/sdk-fixtures.js';

/** The "database" (a table of sessions by client name): it outlives every SDK of a test. */
const table = new Map<string, Buffer>();
const writes: string[] = [];

/**
 * A session store as a user would write one for S3 or Postgres: a class built by the container
 * (its logger injected), keeping sessions in `table` instead of files.
 */
@injectable()
class TableSessionStore implements SessionStore {
  readonly type = 'remote' as const;

  constructor(@inject(LOGGER) private readonly log: Logger) {}

  exists(client: string): Promise<boolean> {
    return Promise.resolve(table.has(client));
  }

  read(client: string): Promise<Buffer | null> {
    return Promise.resolve(table.get(client) ?? null);
  }

  write(client: string, data: Buffer): Promise<void> {
    this.log.debug({ client }, 'session saved in the table');
    writes.push(client);
    table.set(client, Buffer.from(data));
    return Promise.resolve();
  }

  delete(client: string): Promise<void> {
    table.delete(client);
    return Promise.resolve();
  }

  acquire(): Promise<SessionLease> {
    return Promise.resolve({ release: () => Promise.resolve() });
  }

  workDir(): Promise<string> {
    return Promise.reject(new Error('this store keeps no local files'));
  }
}

describe('kernel: a user replaces a service (SdkOptions.services)', () => {
  const sdks: Sdk[] = [];
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let dataPath = '';

  beforeEach(async () => {
    const temp = await tempDir('wakit-replace-');
    cleanup = temp.cleanup;
    dataPath = temp.dir;
    table.clear();
    writes.length = 0;
  });

  afterEach(async () => {
    for (const sdk of sdks.splice(0)) await sdk.stop({ drainTimeoutMs: 0 });
    await cleanup();
  });

  function simulatorSdk(services: SdkOptions['services']): Sdk {
    const sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 5 },
        auth: { type: 'local', dataPath },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, persistence: 'memory' },
      },
      { logger: pino({ level: 'silent' }), ...(services ? { services } : {}) },
    );
    sdks.push(sdk);
    return sdk;
  }

  it('a session store of the user’s keeps the session: a restarted SDK restores it without a QR', async () => {
    const replace: SdkOptions['services'] = (s) =>
      s.register(SESSION_STORE, { useClass: TableSessionStore });

    const first = simulatorSdk(replace);
    await first.start();
    const linked = first.createClient({ name: 'bot' });
    let qrs = 0;
    linked.on('qr', (qr) => {
      qrs++;
      first.simulator.scan(qr, { phone: BOT_PHONE });
    });
    await linked.initialize();
    await linked.waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs).to.equal(1);
    expect(writes).to.deep.equal(['bot']);
    expect(table.has('bot')).to.equal(true);
    // nothing went to the configured local store
    expect(await readdir(dataPath)).not.to.include('bot');
    await first.stop();

    const second = simulatorSdk(replace);
    await second.start();
    const restored = second.createClient({ name: 'bot' });
    restored.on('qr', () => qrs++);
    await restored.initialize();
    await restored.waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs).to.equal(1);
    expect(restored.info().me?.id).to.equal(`${BOT_PHONE}@c.us`);
  });

  it('the default session store keeps the session in files instead (the control case)', async () => {
    const sdk = simulatorSdk(undefined);
    await sdk.start();
    await linkedClient(sdk, 'bot');
    expect(writes).to.deep.equal([]);
    expect(await readdir(dataPath)).to.include('bot');
  });

  it('a clock of the user’s stamps the sends', async () => {
    const at = Date.parse('2030-01-02T03:04:05.000Z');
    const clock: Clock = {
      now: () => at,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (handle) => clearTimeout(handle),
    };
    const sdk = simulatorSdk((s) => s.register(CLOCK, { useValue: clock }));
    await sdk.start();
    const client = await linkedClient(sdk, 'bot');
    sdk.simulator.phone('15550001111');
    const queued = await client.enqueue(prepareContent('15550001111', 'hello'));
    await queued.result;
    const record = await sdk.sends.get(queued.trackingId);
    expect(record?.createdAt).to.equal('2030-01-02T03:04:05.000Z');
  });

  it('an outbox of the user’s journals the sends (a factory reading the config)', async () => {
    const appended: string[] = [];
    class AuditedOutbox extends MemoryOutbox {
      override append(entry: OutboxEntry) {
        appended.push(entry.id);
        return super.append(entry);
      }
    }
    const sdk = simulatorSdk((s) =>
      s.register(OUTBOX, {
        useFactory: (c) => {
          expect(c.resolve(CONFIG).queue.persistence).to.equal('memory');
          return new AuditedOutbox();
        },
      }),
    );
    await sdk.start();
    const client = await linkedClient(sdk, 'bot');
    sdk.simulator.phone('15550001111');
    const queued = await client.enqueue(prepareContent('15550001111', 'hello'));
    await queued.result;
    expect(appended).to.deep.equal([queued.trackingId]);
    expect((await sdk.sends.get(queued.trackingId))?.status).to.be.oneOf(['sent', 'delivered']);
  });

  it('replacements are built once per SDK, at createSdk, in the kernel’s order (outbox, then session store)', async () => {
    const built: string[] = [];
    const sdk = simulatorSdk((s) =>
      s
        .register(SESSION_STORE, {
          useFactory: () => {
            built.push('sessionStore');
            return new TableSessionStore(pino({ level: 'silent' }));
          },
        })
        .register(OUTBOX, {
          useFactory: () => {
            built.push('outbox');
            return new MemoryOutbox();
          },
        }),
    );
    expect(built).to.deep.equal(['outbox', 'sessionStore']);
    await sdk.start();
    await linkedClient(sdk, 'one', '15550000001');
    await linkedClient(sdk, 'two', '15550000002');
    expect(built).to.deep.equal(['outbox', 'sessionStore']);
    expect(writes).to.deep.equal(['one', 'two']);
  });

  it('CONFIG_INVALID for a token that is not a replaceable service, or a provider of nothing', () => {
    const bad = (services: SdkOptions['services']) => () => simulatorSdk(services);
    expect(bad((s) => s.register(CONFIG, { useValue: {} as never })))
      .to.throw(
        /wakit\.config is not a replaceable service; these are: wakit\.clock, wakit\.sessionStore/,
      )
      .with.property('code', 'CONFIG_INVALID');
    expect(bad((s) => s.register(SESSION_STORE, {} as never)))
      .to.throw(/wakit\.sessionStore needs useValue, useClass or useFactory/)
      .with.property('code', 'CONFIG_INVALID');
  });
});
