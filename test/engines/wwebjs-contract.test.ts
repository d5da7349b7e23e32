import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import type { SessionStore } from '../../src/auth/session-store.js';
import { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { Engine } from '../../src/engines/engine.js';
import { engineSchema } from '../../src/config/schema.js';
import type { WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { describeEngineContract, type EngineHarness } from './engine-contract.js';
import type { FakeClient, FakeRemoteAuth } from '../helpers/fake-wwebjs-client.js';
import {
  BOT,
  RESTRICTED_GROUP,
  SESSION_FILE,
  UNKNOWN,
  CONTACT,
  populatedNetwork,
} from '../helpers/fake-wwebjs-client.js';
import { readFile } from 'node:fs/promises';

const logger = pino({ level: 'silent' });
const CLIENT = 'contract';

/** The remote flavour: the same files, but the store says `remote` (RemoteAuth + our adapter). */
class RemoteTypedStore extends LocalSessionStore {
  override readonly type = 'remote' as unknown as 'local';
}

function wwebjsHarness(storeType: 'local' | 'remote') {
  return async (): Promise<EngineHarness> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-'));
    const store: SessionStore =
      storeType === 'local' ? new LocalSessionStore(dir) : new RemoteTypedStore(dir);
    const network = populatedNetwork({ ackDelayMs: 5 });
    const config = engineSchema.parse({ type: 'whatsapp-web.js' }) as WwebjsEngineConfig;
    const engines: Engine[] = [];
    const make = (): Engine => {
      const engine = new WwebjsEngine(
        config,
        { clientName: CLIENT, store, logger },
        {
          bindings: network.bindings(),
          browserEnvironment: { env: {}, isRoot: false, isExecutable: () => true },
          isProcessAlive: () => false,
        },
      );
      engines.push(engine);
      return engine;
    };
    const settleBackups = async (): Promise<void> => {
      await Promise.all(network.created.map((c) => c.authReady));
      await Promise.all(network.created.map((c) => (c.authStrategy as FakeRemoteAuth).pendingSave));
    };
    const online = (): FakeClient => {
      const client = [...network.clients].find((c) => c.isReady);
      if (!client) throw new Error('no linked client online');
      return client;
    };
    return {
      engine: make(),
      link: (qr) => network.link(qr, BOT),
      contact: CONTACT,
      unknownChat: UNKNOWN,
      restrictedGroup: RESTRICTED_GROUP,
      receiveText: (from, text) => {
        network.receive(BOT, from, { text });
        return Promise.resolve();
      },
      receiveMedia: (from, media) => {
        network.receive(BOT, from, {
          media: media.data,
          mimetype: media.mimetype,
          filename: media.filename,
          caption: media.caption,
        });
        return Promise.resolve();
      },
      dropConnection: (reason) => {
        const client = online();
        if (reason === 'browser_crashed') client.pupBrowser?.crash();
        else if (reason === 'connection_lost') void client.changeState('TIMEOUT');
        else if (reason === 'logout') void client.loggedOutFromPhone();
        else {
          const state = { session_expired: 'UNPAIRED', conflict: 'CONFLICT', banned: 'TOS_BLOCK' }[
            reason as string
          ];
          void client.changeState(state ?? 'PROXYBLOCK');
        }
      },
      reopen: () => Promise.resolve(make()),
      readSavedSession: async () => {
        if (storeType === 'remote') {
          await settleBackups();
          return store.read(CLIENT);
        }
        const profile = path.join(await store.workDir(CLIENT), `session-${CLIENT}`, SESSION_FILE);
        return readFile(profile).catch(() => null);
      },
      cleanup: async () => {
        for (const engine of engines) await engine.stop();
        await settleBackups();
        await rm(dir, { recursive: true, force: true });
      },
    };
  };
}

describeEngineContract('whatsapp-web.js (fake Client, LocalAuth)', wwebjsHarness('local'));
describeEngineContract('whatsapp-web.js (fake Client, RemoteAuth)', wwebjsHarness('remote'));
