import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createSdk, definePlugin } from '../../src/index.js';
import { tempDir } from '../helpers/sdk-fixtures.js';
import { ALICE, BOT_ID, eventually, pluginFixture, type PluginFixture } from './plugin-helpers.js';

const never = new Promise<void>(() => undefined);

describe('watchdog: hung handlers', () => {
  let fx: PluginFixture;
  afterEach(() => fx.cleanup());

  async function start(plugins: ReturnType<typeof definePlugin>[]) {
    fx = await pluginFixture({ watchdog: { handlerTimeoutMs: 100 } });
    for (const plugin of plugins) fx.sdk.use(plugin);
    await fx.start();
  }

  it('reports a handler that never settles (HANDLER_TIMEOUT with plugin and event) and runs the next ones', async () => {
    const reached: string[] = [];
    await start([
      definePlugin({
        name: 'hangs',
        setup(ctx) {
          ctx.on('message', () => never);
        },
      }),
      definePlugin({
        name: 'after',
        setup(ctx) {
          ctx.on('message', (event) => {
            reached.push(event.message.body);
          });
        },
      }),
    ]);
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'hello');
    await eventually(() => fx.errors.length > 0 && reached.length > 0);
    expect(reached).to.deep.equal(['hello']);
    expect(fx.errors).to.have.length(1);
    const [report] = fx.errors;
    expect(report).to.include({ plugin: 'hangs', event: 'message', client: 'bot' });
    expect(report?.error.code).to.equal('HANDLER_TIMEOUT');
    expect(report?.error.message).to.match(/hangs.*message.*100 ms/);
  });

  it('blames the handler that hangs, not the ones waiting for it through next()', async () => {
    await start([
      definePlugin({
        name: 'outer',
        setup(ctx) {
          ctx.on('message', async (_event, next) => {
            await next();
          });
        },
      }),
      definePlugin({
        name: 'inner',
        setup(ctx) {
          ctx.on('message', () => never);
        },
      }),
    ]);
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'x');
    await eventually(() => fx.errors.length > 0);
    // outer's own work finished once inner was cut loose: it is never reported
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fx.errors.map((e) => e.plugin)).to.deep.equal(['inner']);
  });

  it('reports a command handler that never settles as command:<name> of its plugin', async () => {
    await start([
      definePlugin({
        name: 'slow-commands',
        setup(ctx) {
          ctx.command('wait', () => never);
        },
      }),
    ]);
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, '!wait');
    await eventually(() => fx.errors.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fx.errors.map((e) => [e.plugin, e.event, e.error.code])).to.deep.equal([
      ['slow-commands', 'command:wait', 'HANDLER_TIMEOUT'],
    ]);
  });
});

describe('watchdog: event-loop delay', () => {
  it('logs a blocked event loop and keeps the delay for /metrics', async () => {
    const { dir, cleanup } = await tempDir('wakit-watchdog-');
    const logs: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const sdk = createSdk(
      {
        engine: { type: 'simulator' },
        auth: { type: 'local', dataPath: dir },
        watchdog: { eventLoopDelayWarnMs: 100, eventLoopCheckMs: 50 },
      },
      { logger: pino({ level: 'warn' }, sink) },
    );
    try {
      await sdk.start();
      // the monitor samples every 10 ms: let it take its first samples
      await new Promise((resolve) => setTimeout(resolve, 100));
      // a handler spinning for 400 ms
      const until = Date.now() + 400;
      while (Date.now() < until) {
        /* block the event loop */
      }
      await eventually(() => logs.some((l) => /event loop/.test(String(l.msg))));
      const warning = logs.find((l) => /event loop/.test(String(l.msg)));
      expect(warning).to.include({ level: 40 });
      expect(Number(warning?.delayMs)).to.be.at.least(100);
      expect(sdk.eventLoop.stats().maxMs).to.be.at.least(0);
      expect(sdk.eventLoop.stats().worstMs).to.be.at.least(300);
    } finally {
      await sdk.stop();
      await cleanup();
    }
  });
});
