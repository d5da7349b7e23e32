/**
 * A whatsapp-web.js engine on the fake Client, started and linked as BOT: what the adapter tests of
 * each area (chats, groups, actions, messages, LID) begin with.
 */
import type { Logger } from 'pino';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import { engineSchema } from '../../src/config/schema.js';
import { createWwebjsEngineFactory } from '../../src/engines/wwebjs/index.js';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { WwebjsBindings, WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { nextEvent } from '../engines/engine-contract.js';
import { BOT, type FakeClient, type FakeWhatsAppNetwork } from './fake-wwebjs-client.js';

export async function linkedWwebjsEngine(
  network: FakeWhatsAppNetwork,
  dir: string,
  logger: Logger,
  bindings: WwebjsBindings = network.bindings(),
): Promise<{ engine: WwebjsEngine; client: FakeClient }> {
  const factory = createWwebjsEngineFactory(
    engineSchema.parse({ type: 'whatsapp-web.js' }) as WwebjsEngineConfig,
    {
      bindings,
      browserEnvironment: { env: {}, isRoot: false, isExecutable: () => true },
      isProcessAlive: () => false,
    },
  );
  const engine = (await factory({
    clientName: 'bot',
    store: new LocalSessionStore(dir),
    logger,
  })) as WwebjsEngine;
  const qr = nextEvent(engine, 'qr');
  const ready = nextEvent(engine, 'ready');
  await engine.start();
  await network.link((await qr)[0], BOT);
  await ready;
  return { engine, client: network.last };
}
