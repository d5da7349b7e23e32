import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, type Message, type WakitError } from '../../src/index.js';
import {
  ALICE,
  ALICE_ID,
  BOT_ID,
  eventually,
  pluginFixture,
  settle,
  type PluginFixture,
} from './plugin-helpers.js';
import { rejection } from '../helpers/rejection.js';

describe('PluginHost', () => {
  let fx: PluginFixture;
  beforeEach(async () => {
    fx = await pluginFixture();
  });
  afterEach(() => fx.cleanup());

  describe('middleware pipeline', () => {
    it('runs handlers in registration order; a handler that does not call next consumes the event', async () => {
      const seen: string[] = [];
      fx.sdk.use(
        definePlugin({
          name: 'first',
          setup(ctx) {
            ctx.on('message', async (event, next) => {
              seen.push(`first:${event.message.body}`);
              event.state.mark = 'from-first';
              await next();
              seen.push('first:after');
            });
          },
        }),
      );
      fx.sdk.use(
        definePlugin({
          name: 'gate',
          setup(ctx) {
            ctx.on('message', (event, next) => {
              seen.push(`gate:${String(event.state.mark)}`);
              if (event.message.body !== 'stop') return next();
              return undefined;
            });
          },
        }),
      );
      fx.sdk.use(
        definePlugin({
          name: 'last',
          setup(ctx) {
            ctx.on('message', (event) => {
              seen.push(`last:${event.message.body}`);
            });
          },
        }),
      );
      await fx.start();
      await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'go');
      await eventually(() => seen.includes('first:after'));
      expect(seen).to.deep.equal(['first:go', 'gate:from-first', 'last:go', 'first:after']);
      seen.length = 0;
      await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'stop');
      await eventually(() => seen.includes('first:after'));
      expect(seen).to.deep.equal(['first:stop', 'gate:from-first', 'first:after']);
    });

    it('calling next() twice throws INVALID_STATE, is reported, and later handlers run once', async () => {
      let last = 0;
      fx.sdk.use(
        definePlugin({
          name: 'twice',
          setup(ctx) {
            ctx.on('message', async (_event, next) => {
              await next();
              await next();
            });
            ctx.on('message', () => {
              last++;
            });
          },
        }),
      );
      await fx.start();
      await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'go');
      await eventually(() => fx.errors.length === 1);
      await settle(20);
      expect(last).to.equal(1);
      expect(fx.errors[0]).to.deep.include({ source: 'plugin', plugin: 'twice', event: 'message' });
      expect(fx.errors[0].error.code).to.equal('INVALID_STATE');
      expect(fx.errors[0].error.message).to.match(/next\(\) was called twice/);
    });

    it('contains a throwing handler: logged and reported with plugin and message id, the chain goes on', async () => {
      const reached: string[] = [];
      fx.sdk.use(
        definePlugin({
          name: 'faulty',
          setup(ctx) {
            ctx.on('message', () => {
              throw new Error('boom');
            });
            ctx.on('message', () => Promise.reject(new Error('async boom')));
          },
        }),
      );
      fx.sdk.use(
        definePlugin({
          name: 'healthy',
          setup(ctx) {
            ctx.on('message', (event) => {
              reached.push(event.message.id);
            });
          },
        }),
      );
      await fx.start();
      const { id } = await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'hello');
      await eventually(() => reached.length === 1 && fx.errors.length === 2);
      expect(fx.errors.map((e) => [e.plugin, e.event, e.error.message])).to.deep.equal([
        ['faulty', 'message', 'boom'],
        ['faulty', 'message', 'async boom'],
      ]);
      expect(fx.errors[0]?.messageId).to.be.a('string').and.equal(reached[0]);
      expect(reached[0]).to.include(id.split('_').at(-1));
      // still alive: the next message flows too
      await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'again');
      await eventually(() => reached.length === 2);
    });

    it('filters handlers by client name', async () => {
      const got: string[] = [];
      fx.sdk.use(
        definePlugin({
          name: 'only-other',
          setup(ctx) {
            ctx.on('message', (event) => void got.push(`other:${event.client.name}`), {
              clients: ['other'],
            });
            ctx.on('message', (event) => void got.push(`all:${event.client.name}`));
          },
        }),
      );
      await fx.start();
      await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'x');
      await eventually(() => got.length === 1);
      await settle();
      expect(got).to.deep.equal(['all:bot']);
    });

    it('delivers non-message events (state, ready) with their data', async () => {
      const states: string[] = [];
      fx.sdk.use(
        definePlugin({
          name: 'watch',
          setup(ctx) {
            ctx.on('state', (event, next) => {
              states.push(event.data.to);
              return next();
            });
          },
        }),
      );
      await fx.start();
      expect(states).to.include('READY');
    });
  });

  describe('setup', () => {
    it('validates options with the plugin schema and passes the parsed, typed value', async () => {
      let got: { greeting: string; times: number } | undefined;
      const plugin = definePlugin({
        name: 'opts',
        options: z.object({ greeting: z.string(), times: z.number().int().default(2) }).strict(),
        setup(ctx) {
          got = ctx.options;
        },
      });
      const bad = (() => {
        try {
          fx.sdk.use(plugin, { greeting: 3, extra: true });
        } catch (error) {
          return error as WakitError;
        }
        return undefined;
      })();
      expect(bad?.code).to.equal('CONFIG_INVALID');
      expect(bad?.issues?.map((i) => i.path)).to.include.members([
        'plugins.opts.greeting',
        'plugins.opts.extra',
      ]);
      expect(bad?.message).to.include('plugin opts');
      fx.sdk.use(plugin, { greeting: 'hi' });
      await fx.sdk.start();
      expect(got).to.deep.equal({ greeting: 'hi', times: 2 });
    });

    it('sets plugins up in dependency order', async () => {
      const order: string[] = [];
      const make = (name: string, dependencies?: string[]) =>
        definePlugin({
          name,
          ...(dependencies ? { dependencies } : {}),
          setup: () => void order.push(name),
        });
      fx.sdk
        .use(make('c', ['b']))
        .use(make('b', ['a']))
        .use(make('a'))
        .use(make('d'));
      await fx.sdk.start();
      expect(order).to.deep.equal(['a', 'b', 'c', 'd']);
      expect(fx.sdk.plugins.list().map((p) => p.name)).to.deep.equal(['a', 'b', 'c', 'd']);
    });

    it('fails start with PLUGIN_DEPENDENCY_MISSING naming the plugin and the missing one', async () => {
      fx.sdk.use(definePlugin({ name: 'needy', dependencies: ['ghost'], setup: () => undefined }));
      const error = await rejection(fx.sdk.start());
      expect(error.code).to.equal('PLUGIN_DEPENDENCY_MISSING');
      expect(error.message).to.include('needy').and.include('ghost');
    });

    it('reports dependency cycles', async () => {
      fx.sdk.use(definePlugin({ name: 'x', dependencies: ['y'], setup: () => undefined }));
      fx.sdk.use(definePlugin({ name: 'y', dependencies: ['x'], setup: () => undefined }));
      const error = await rejection(fx.sdk.start());
      expect(error.code).to.equal('PLUGIN_DEPENDENCY_MISSING');
      expect(error.message).to.match(/cycle: (x → y → x|y → x → y)/);
    });

    it('refuses duplicate names with PLUGIN_DUPLICATE', () => {
      fx.sdk.use(definePlugin({ name: 'twin', setup: () => undefined }));
      expect(() => fx.sdk.use(definePlugin({ name: 'twin', setup: () => undefined })))
        .to.throw()
        .with.property('code', 'PLUGIN_DUPLICATE');
    });

    it('times a hanging setup out with PLUGIN_TIMEOUT and runs close hooks of plugins already set up', async () => {
      const closed: string[] = [];
      fx.sdk.use(
        definePlugin({ name: 'fine', setup: (ctx) => ctx.onClose(() => void closed.push('fine')) }),
      );
      fx.sdk.use(
        definePlugin({
          name: 'slow',
          setupTimeoutMs: 30,
          setup: () => new Promise<void>(() => undefined),
        }),
      );
      const error = await rejection(fx.sdk.start());
      expect(error.code).to.equal('PLUGIN_TIMEOUT');
      expect(error.message).to.include('slow');
      expect(closed).to.deep.equal(['fine']);
      expect(fx.sdk.phase).to.equal('failed');
    });

    it('wraps a setup failure with the plugin name', async () => {
      fx.sdk.use(
        definePlugin({
          name: 'broken',
          setup: () => {
            throw new TypeError('nope');
          },
        }),
      );
      const error = await rejection(fx.sdk.start());
      expect(error.code).to.equal('PLUGIN_LOAD_FAILED');
      expect(error.message).to.include('broken').and.include('nope');
    });

    it('refuses plugins, commands and routes added after start', async () => {
      let late: (() => void) | undefined;
      fx.sdk.use(
        definePlugin({
          name: 'late',
          setup(ctx) {
            late = () => ctx.command('later', () => undefined);
          },
        }),
      );
      await fx.sdk.start();
      expect(() => fx.sdk.use(definePlugin({ name: 'too-late', setup: () => undefined })))
        .to.throw()
        .with.property('code', 'INVALID_STATE');
      expect(() => late?.())
        .to.throw()
        .with.property('code', 'INVALID_STATE');
    });

    it('runs close hooks in reverse order at stop, after the queue drained', async () => {
      const closed: string[] = [];
      for (const name of ['one', 'two']) {
        fx.sdk.use(
          definePlugin({
            name,
            setup(ctx) {
              ctx.onClose(() => void closed.push(`${name}:a`));
              ctx.onClose(async () => {
                await settle(5);
                closed.push(`${name}:b`);
              });
              ctx.onClose(() => {
                throw new Error('close failed');
              });
            },
          }),
        );
      }
      await fx.sdk.start();
      await fx.sdk.stop();
      expect(closed).to.deep.equal(['two:b', 'two:a', 'one:b', 'one:a']);
      expect(fx.errors.map((e) => `${e.plugin}:${e.event}`)).to.deep.equal([
        'two:close',
        'one:close',
      ]);
    });
  });

  describe('ctx.send and clients', () => {
    it('sends text and media through the client queue and gives access to clients', async () => {
      let send: ((to: string) => Promise<unknown>) | undefined;
      let names: string[] = [];
      fx.sdk.use(
        definePlugin({
          name: 'sender',
          setup(ctx) {
            ctx.on('ready', (event) => {
              names = ctx.clients.list().map((c) => c.name);
              expect(ctx.clients.get(event.client.name)).to.equal(event.client);
            });
            send = async (to) => {
              await ctx.send('bot', to, 'plain text');
              await ctx.send(
                'bot',
                to,
                {
                  type: 'image',
                  buffer: Buffer.from('png'),
                  mimetype: 'image/png',
                  caption: 'pic',
                },
                { priority: 'bulk' },
              );
            };
          },
        }),
      );
      await fx.start();
      await send?.(ALICE_ID);
      const alice = fx.sdk.simulator.phone(ALICE);
      await alice.waitForMessage((m) => m.body === 'plain text');
      const image = await alice.waitForMessage((m) => m.type === 'image');
      expect(image.caption).to.equal('pic');
      expect(names).to.deep.equal(['bot']);
    });

    it('rejects bad content with VALIDATION_FAILED before queueing', async () => {
      let ctxSend: ((content: unknown) => Promise<unknown>) | undefined;
      fx.sdk.use(
        definePlugin({
          name: 'bad-sender',
          setup(ctx) {
            ctxSend = (content) => ctx.send('bot', ALICE_ID, content as never);
          },
        }),
      );
      await fx.start();
      expect(
        (await rejection(ctxSend!({ type: 'gif', url: 'https://x.test/a.gif' }))).code,
      ).to.equal('VALIDATION_FAILED');
      expect(
        (await rejection(ctxSend!({ type: 'video', buffer: Buffer.from('x') }))).code,
      ).to.equal('VALIDATION_FAILED');
      expect((await rejection(ctxSend!(42))).code).to.equal('VALIDATION_FAILED');
    });
  });

  it('keeps message objects usable in handlers (reply goes through the queue)', async () => {
    fx.sdk.use(
      definePlugin({
        name: 'echo',
        setup(ctx) {
          ctx.on('message', async (event) => {
            const message: Message = event.message;
            await message.reply(`echo: ${message.body}`);
          });
        },
      }),
    );
    await fx.start();
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'ping');
    const answer = await fx.sdk.simulator
      .phone(ALICE)
      .waitForMessage((m) => m.body === 'echo: ping');
    expect(answer.quotedMessageId).to.be.a('string');
  });
});
