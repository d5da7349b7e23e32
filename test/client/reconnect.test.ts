/**
 * Reconnect settings (`reconnect` section) and the supervisor's timers on the kernel clock:
 * driven through the public API on the simulator with sinon fake timers.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { createSdk, type ClientState, type Sdk } from '../../src/index.js';
import { linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

describe('reconnect backoff on the kernel clock', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sdk: Sdk | undefined;
  let clock: sinon.SinonFakeTimers | undefined;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(async () => {
    clock?.restore();
    clock = undefined;
    await sdk?.stop();
    sdk = undefined;
    await cleanup();
  });

  it('waits the configured delay (jitter none) before reconnecting, to the millisecond', async () => {
    sdk = simulatorSdk(dir, {
      reconnect: { initialDelayMs: 1_000, maxDelayMs: 4_000, jitter: 'none' },
    });
    const client = await linkedClient(sdk, 'sales');
    const states: ClientState[] = [];
    client.on('state', ({ to }) => states.push(to));
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    sdk.simulator.disconnect('sales', 'connection_lost');
    await clock.tickAsync(999);
    expect(states).to.deep.equal(['DISCONNECTED']);
    await clock.tickAsync(1);
    expect(states.slice(0, 2)).to.deep.equal(['DISCONNECTED', 'STARTING']);
    clock.restore(); // the restart reads the session from disk: real time from here
    clock = undefined;
    await client.waitUntilReady({ timeoutMs: 5_000 });
  });

  it('full jitter reconnects within the first ceiling; stop() during the backoff cancels it', async () => {
    sdk = simulatorSdk(dir, { reconnect: { initialDelayMs: 2_000, maxDelayMs: 2_000 } });
    const client = await linkedClient(sdk, 'sales');
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    sdk.simulator.disconnect('sales', 'connection_lost');
    await clock.tickAsync(2_000);
    expect(client.state).to.not.equal('DISCONNECTED');
    clock.restore();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

    const states: ClientState[] = [];
    client.on('state', ({ to }) => states.push(to));
    sdk.simulator.disconnect('sales', 'connection_lost');
    expect(client.state).to.equal('DISCONNECTED');
    await client.stop();
    await clock.tickAsync(10_000);
    expect(states).to.deep.equal(['DISCONNECTED', 'STOPPED']);
  });

  it('maxAttempts 0: a recoverable disconnect ends in FAILED without reconnecting', async () => {
    sdk = simulatorSdk(dir, { reconnect: { maxAttempts: 0 } });
    const client = await linkedClient(sdk, 'sales');
    const states: ClientState[] = [];
    client.on('state', ({ to }) => states.push(to));
    sdk.simulator.disconnect('sales', 'connection_lost');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(states).to.deep.equal(['DISCONNECTED', 'FAILED']);
    expect(client.state).to.equal('FAILED');
  });

  it('the defaults are documented values: 5 attempts, 1 s doubling to 60 s, full jitter', () => {
    sdk = simulatorSdk(dir);
    expect(sdk.config.reconnect).to.deep.equal({
      maxAttempts: 5,
      initialDelayMs: 1_000,
      maxDelayMs: 60_000,
      jitter: 'full',
    });
  });

  for (const [key, value, hint] of [
    ['maxRestarts', 3, 'engine.maxRestarts moved to reconnect.maxAttempts'],
    [
      'restartBackoffMs',
      { initial: 5, max: 10 },
      'engine.restartBackoffMs moved to reconnect.initialDelayMs and reconnect.maxDelayMs',
    ],
  ] as const) {
    for (const type of ['simulator', 'whatsapp-web.js'] as const) {
      it(`the old key engine.${key} (${type}) is CONFIG_INVALID naming the new key`, () => {
        let error: { code?: string; message?: string; details?: unknown } = {};
        try {
          createSdk({ auth: { type: 'local', dataPath: dir }, engine: { type, [key]: value } });
        } catch (caught) {
          error = caught as typeof error;
        }
        expect(error.code).to.equal('CONFIG_INVALID');
        expect(error.message).to.include(hint);
        expect(error.message).to.include('engine:');
      });
    }
  }

  it('other unknown engine keys get the plain unknown-key message', () => {
    expect(() =>
      createSdk({
        auth: { type: 'local', dataPath: dir },
        engine: { type: 'simulator', nope: 1 } as never,
      }),
    )
      .to.throw(/engine\.nope: unknown key "nope"/)
      .with.property('code', 'CONFIG_INVALID');
  });
});
