import { expect } from 'chai';
import { z } from 'zod';
import type { PluginRouteRegistry } from '../../src/entries/http.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RouteRegistry } from '../../src/plugins/routes.js';
import { ALICE, BOT_ID, pluginFixture, type PluginFixture } from './plugin-helpers.js';
import { rejection } from '../helpers/rejection.js';

const INDEX = pathToFileURL(path.resolve('src/index.ts')).href;

describe('loading plugins from config', () => {
  let fx: PluginFixture;
  afterEach(() => fx.cleanup());

  async function writePlugins(dir: string): Promise<void> {
    await mkdir(path.join(dir, 'plugins'), { recursive: true });
    await writeFile(
      path.join(dir, 'plugins/echo.ts'),
      `import { definePlugin, z } from '${INDEX}';
const options = z.object({ prefix: z.string().default('echo: ') }).strict();
export default definePlugin({
  name: 'echo',
  options,
  setup(ctx) {
    const prefix: string = ctx.options.prefix;
    ctx.command('echo', (cmd) => cmd.reply(prefix + cmd.rawArgs));
  },
});
`,
    );
    await writeFile(
      path.join(dir, 'plugins/plain.js'),
      `import { definePlugin } from '${INDEX}';
export const plugin = definePlugin({ name: 'plain', setup(ctx) { ctx.command('plain', (cmd) => cmd.reply('plain js')); } });
`,
    );
    const pkg = path.join(dir, 'node_modules/wakit-plugin-hello');
    await mkdir(path.join(pkg, 'lib'), { recursive: true });
    await writeFile(
      path.join(pkg, 'package.json'),
      JSON.stringify({
        name: 'wakit-plugin-hello',
        type: 'module',
        exports: { '.': { import: './lib/main.js' } },
      }),
    );
    await writeFile(
      path.join(pkg, 'lib/main.js'),
      `import { definePlugin } from '${INDEX}';
export default definePlugin({ name: 'hello-pkg', setup(ctx) { ctx.command('hi', (cmd) => cmd.reply('hi from a package')); } });
`,
    );
  }

  it('loads built-ins, relative .ts/.js files and packages, with options; false disables', async () => {
    fx = await pluginFixture();
    await writePlugins(fx.dir);
    await fx.cleanup();
    fx = await pluginFixture({
      plugins: {
        './plugins/echo.ts': { prefix: '>> ' },
        './plugins/plain.js': true,
        'wakit-plugin-hello': {},
        'auto-reply': { rules: [{ match: 'ping', type: 'exact', reply: 'pong' }] },
        'media-saver': false,
      },
    });
    await writePlugins(fx.dir);
    await fx.start();
    expect(fx.sdk.plugins.list().map((p) => `${p.name}<${p.source}`)).to.deep.equal([
      'echo<./plugins/echo.ts',
      'plain<./plugins/plain.js',
      'hello-pkg<wakit-plugin-hello',
      'auto-reply<auto-reply',
    ]);
    const alice = fx.sdk.simulator.phone(ALICE);
    await alice.send(BOT_ID, '!echo hi there');
    await alice.waitForMessage((m) => m.body === '>> hi there');
    await alice.send(BOT_ID, '!plain');
    await alice.waitForMessage((m) => m.body === 'plain js');
    await alice.send(BOT_ID, '!hi');
    await alice.waitForMessage((m) => m.body === 'hi from a package');
    await alice.send(BOT_ID, 'ping');
    await alice.waitForMessage((m) => m.body === 'pong');
  });

  it('reports every problem at once with the plugin key and path (CONFIG_INVALID)', async () => {
    fx = await pluginFixture({
      plugins: {
        './plugins/missing.ts': {},
        'no-such-package': {},
        'auto-reply': { rules: [{ match: '(', type: 'regex', reply: 'x' }] },
        forwarder: { routes: 'nope' },
      },
    });
    const error = await rejection(fx.sdk.start());
    expect(error.code).to.equal('CONFIG_INVALID');
    expect(error.issues?.map((i) => i.path)).to.deep.equal([
      'plugins["./plugins/missing.ts"]',
      'plugins.no-such-package',
      'plugins.auto-reply.rules.0.match',
      'plugins.forwarder.routes',
    ]);
    expect(error.message).to.include('does not exist').and.include('is not installed');
  });

  it('refuses a module that exports no plugin', async () => {
    fx = await pluginFixture({ plugins: { './not-a-plugin.js': {} } });
    await writeFile(path.join(fx.dir, 'not-a-plugin.js'), 'export const x = 1;\n');
    const error = await rejection(fx.sdk.start());
    expect(error.message).to.include('does not export a plugin');
  });
});

describe('plugin HTTP routes', () => {
  it('keeps the routes plugins declare, in order, with auth resolved', async () => {
    const fx = await pluginFixture();
    try {
      const { definePlugin } = await import('../../src/index.js');
      let registry!: PluginRouteRegistry;
      fx.sdk.use(
        definePlugin({
          name: 'stats',
          setup(ctx) {
            registry = ctx.http;
            ctx.http.route({
              method: 'GET',
              path: '/count/:client',
              handler: (req) => ({ body: { client: req.params.client } }),
            });
            ctx.http.route({
              method: 'POST',
              path: '/hook',
              auth: false,
              handler: () => ({ status: 204 }),
            });
          },
        }),
      );
      await fx.sdk.start();
      expect(
        registry.routes().map((r) => `${r.method} ${r.plugin} ${r.path} ${r.auth}`),
      ).to.deep.equal(['GET stats /count/:client true', 'POST stats /hook false']);
    } finally {
      await fx.cleanup();
    }
  });

  it('validates route definitions', () => {
    const registry = new RouteRegistry();
    const handler = () => ({});
    expect(() => registry.add('p', { method: 'TRACE' as 'GET', path: '/x', handler })).to.throw(
      /method/,
    );
    expect(() => registry.add('p', { method: 'GET', path: 'x', handler })).to.throw(/start with/);
    expect(() => registry.add('p', { method: 'GET', path: '/a/../b', handler })).to.throw(
      /invalid segment/,
    );
    registry.add('p', { method: 'GET', path: '/a/:id', handler });
    expect(() => registry.add('p', { method: 'GET', path: '/a/:other', handler }))
      .to.throw()
      .with.property('code', 'PLUGIN_DUPLICATE');
  });

  it('validates what makes a route schema-typed (responses, operationId, zod schemas)', () => {
    const registry = new RouteRegistry();
    const handler = () => ({});
    const ok = { 200: { description: 'ok' } };
    const add = (path: string, extra: Record<string, unknown>) => () =>
      registry.add('p', { method: 'GET', path, handler, ...extra });
    expect(add('/a', { responses: {} })).to.throw(/responses must map/);
    expect(add('/a', { responses: { 404: { description: 'no' } } })).to.throw(/responses/);
    expect(add('/a', { responses: ok, operationId: 'has space' })).to.throw(/operationId/);
    expect(add('/a', { query: z.object({}) })).to.throw(/query needs responses/);
    expect(add('/a', { responses: ok, body: { type: 'object' } })).to.throw(/zod schema/);
    registry.add('p', { method: 'GET', path: '/a', handler, responses: ok, operationId: 'pA' });
    expect(add('/b', { responses: ok, operationId: 'pA' }))
      .to.throw(/operationId pA/)
      .with.property('code', 'PLUGIN_DUPLICATE');
  });
});
