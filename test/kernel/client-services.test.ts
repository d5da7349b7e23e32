/**
 * The connection supervisor and the send intake are client-scoped services (docs/kernel.md): each
 * client's child container builds its own from the CONNECTION_SUPERVISOR and SEND_INTAKE tokens,
 * and a user replaces them like other services (here: subclasses that count what they do).
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Sdk, type SdkOptions } from '../../src/index.js';
import type { SendIntake } from '../../src/client/send/send-intake.js';
import {
  CONNECTION_SUPERVISOR,
  SEND_INTAKE,
  intakeOf,
  supervisorOf,
} from '../../src/kernel/client-services.js';
import { CLIENT_NAME } from '../../src/kernel/tokens.js';
import { ALICE_ID, ALICE } from '../plugins/plugin-helpers.js';
import { BOT_ID, linkedClient, tempDir } from '../helpers/sdk-fixtures.js';

describe('kernel: per-client connection supervisor and send intake', function () {
  this.timeout(20_000);
  let dir: { dir: string; cleanup: () => Promise<void> };
  let sdk: Sdk | undefined;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await sdk?.stop();
    sdk = undefined;
    await dir.cleanup();
  });

  function simulatorSdk(services?: SdkOptions['services']): Sdk {
    return createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 0 },
        auth: { type: 'local', dataPath: dir.dir },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
      },
      { logger: pino({ level: 'silent' }), ...(services ? { services } : {}) },
    );
  }

  it('a replaced supervisor and intake, one of each per client, run the clients', async () => {
    const started: string[] = [];
    const accepted: string[] = [];
    sdk = simulatorSdk((s) =>
      s
        .register(CONNECTION_SUPERVISOR, {
          useFactory: (c) => {
            const name = c.resolve(CLIENT_NAME);
            const make = supervisorOf(c);
            return (wiring) => {
              const supervisor = make(wiring);
              const initialize = supervisor.initialize.bind(supervisor);
              supervisor.initialize = () => {
                started.push(name);
                return initialize();
              };
              return supervisor;
            };
          },
        })
        .register(SEND_INTAKE, {
          useFactory: (c) => {
            const name = c.resolve(CLIENT_NAME);
            const make = intakeOf(c);
            return (wiring) => {
              const intake = make(wiring);
              const accept = intake.accept.bind(intake);
              intake.accept = (...args: Parameters<SendIntake['accept']>) => {
                accepted.push(`${name}:${args[0]}`);
                return accept(...args);
              };
              return intake;
            };
          },
        }),
    );
    await sdk.start();
    sdk.simulator.phone(ALICE, { pushname: 'Alice' });
    const bot = await linkedClient(sdk, 'bot');
    await linkedClient(sdk, 'other', '15550000002');
    await bot.sendTextMessage({ to: ALICE_ID, text: 'hello' });
    await sdk.simulator
      .phone(ALICE)
      .waitForMessage((m) => m.body === 'hello' && m.chatId === BOT_ID);
    expect(started).to.deep.equal(['bot', 'other']);
    expect(accepted).to.deep.equal([`bot:${ALICE_ID}`]);
  });
});
