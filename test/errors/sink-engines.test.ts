/**
 * An engine's background failures reach the sink (issue 30, B3): the engine gets
 * `EngineContext.report` from its client, so a step no caller awaits (here: the simulator saving
 * the session it just linked) is reported once, source `engine`, with the client's name.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk } from '../../src/sdk.js';
import type { SessionStore } from '../../src/auth/session-store.js';
import type { WakitErrorEvent } from '../../src/kernel/error-sink.js';
import { SESSION_STORE } from '../../src/kernel/public-tokens.js';
import { linkedClient, tempDir } from '../helpers/sdk-fixtures.js';
import sinon from 'sinon';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import { engineSchema } from '../../src/config/schema.js';
import { createWwebjsEngineFactory } from '../../src/engines/wwebjs/index.js';
import type { WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { nextEvent } from '../engines/engine-contract.js';
import { BOT, populatedNetwork } from '../helpers/fake-wwebjs-client.js';

/** A session store that cannot save (a full disk, a bucket without write access). */
function unwritableStore(workDir: string): SessionStore {
  return {
    type: 'local',
    exists: () => Promise.resolve(false),
    read: () => Promise.resolve(null),
    write: () => Promise.reject(new Error('disk full')),
    delete: () => Promise.resolve(),
    acquire: () => Promise.resolve({ release: () => Promise.resolve() }),
    workDir: () => Promise.resolve(workDir),
  };
}

describe('engine background failures reach the sink, once', function () {
  this.timeout(20_000);

  it('a session the simulator could not save: source engine, event session.save', async () => {
    const dir = await tempDir();
    const sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 0 },
        auth: { type: 'local', dataPath: dir.dir },
      },
      {
        logger: pino({ level: 'silent' }),
        services: (s) => s.register(SESSION_STORE, { useValue: unwritableStore(dir.dir) }),
      },
    );
    const errors: WakitErrorEvent[] = [];
    sdk.on('error', (e) => errors.push(e));
    try {
      await sdk.start();
      const bot = await linkedClient(sdk, 'bot');
      expect(bot.state).to.equal('READY');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(errors.map((e) => [e.source, e.event, e.client, e.error.message])).to.deep.equal([
        ['engine', 'session.save', 'bot', 'disk full'],
      ]);
    } finally {
      await sdk.stop();
      await dir.cleanup();
    }
  });

  it('a logout WhatsApp refused (whatsapp-web.js): reported once as engine/logout, the session deleted anyway', async () => {
    const dir = await tempDir();
    const store = new LocalSessionStore(dir.dir);
    const network = populatedNetwork({ ackDelayMs: 5 });
    const reports: [string, string][] = [];
    const factory = createWwebjsEngineFactory(
      engineSchema.parse({ type: 'whatsapp-web.js' }) as WwebjsEngineConfig,
      {
        bindings: network.bindings(),
        browserEnvironment: { env: {}, isRoot: false, isExecutable: () => true },
        isProcessAlive: () => false,
      },
    );
    const engine = await factory({
      clientName: 'bot',
      store,
      logger: pino({ level: 'silent' }),
      report: (event, error) => reports.push([event, (error as Error).message]),
    });
    try {
      const qr = nextEvent(engine, 'qr');
      const ready = nextEvent(engine, 'ready');
      await engine.start();
      await network.link((await qr)[0], BOT);
      await ready;
      sinon.stub(network.last, 'logout').rejects(new Error('Evaluation failed'));
      await engine.logout();
      expect(reports).to.deep.equal([['logout', 'Evaluation failed']]);
      expect(await store.exists('bot')).to.equal(false);
    } finally {
      await engine.stop();
      await dir.cleanup();
    }
  });
});
