// Privileged services (issue 30): a plugin gets only what it declares, by name; an unknown name
// fails the start with PLUGIN_LOAD_FAILED; the grants are listed by sdk.plugins.list().
import { expect } from 'chai';
import { definePlugin, type Plugin } from '../../src/index.js';
import { pluginFixture, type PluginFixture } from './plugin-helpers.js';
import { rejection } from '../helpers/rejection.js';

describe('plugin privileges', () => {
  let fx: PluginFixture;
  beforeEach(async () => {
    fx = await pluginFixture();
  });
  afterEach(() => fx.cleanup());

  it('grants the declared services (the SDK’s own) and nothing else', async () => {
    let seen: Record<string, unknown> | undefined;
    let stoppingAtSetup: boolean | undefined;
    let lifecycle: { stopping: boolean } | undefined;
    fx.sdk.use(
      definePlugin({
        name: 'auditor',
        privileges: ['sends', 'clientAdmin', 'lifecycle'],
        setup(_ctx, services) {
          seen = { ...services };
          stoppingAtSetup = services.lifecycle.stopping;
          lifecycle = services.lifecycle;
        },
      }),
    );
    await fx.start();
    expect(Object.keys(seen ?? {})).to.have.members(['sends', 'clientAdmin', 'lifecycle']);
    expect(seen?.sends).to.equal(fx.sdk.sends);
    expect(seen?.clientAdmin).to.equal(fx.sdk.clientAdmin);
    expect(stoppingAtSetup).to.equal(false);
    expect(fx.sdk.plugins.list()).to.deep.equal([
      { name: 'auditor', source: 'auditor', privileges: ['sends', 'clientAdmin', 'lifecycle'] },
    ]);
    const stopped = fx.sdk.stop({ drainTimeoutMs: 1_000 });
    expect(lifecycle?.stopping, 'read when used').to.equal(true);
    await stopped;
  });

  it('a plugin that declares nothing gets an empty object, and its context has twelve members', async () => {
    let services: object | undefined;
    let members: string[] = [];
    fx.sdk.use(
      definePlugin({
        name: 'plain',
        setup(ctx, granted) {
          services = granted;
          // @ts-expect-error: a service the plugin did not declare is not in its type either
          void granted.sends;
          members = Object.keys(ctx);
        },
      }),
    );
    await fx.start();
    expect(services).to.deep.equal({});
    expect(members).to.have.members([
      'options',
      'log',
      'env',
      'on',
      'command',
      'send',
      'clients',
      'http',
      'events',
      'onClose',
      'conversations',
      'schedule',
    ]);
    expect(fx.sdk.plugins.list()[0]?.privileges).to.deep.equal([]);
  });

  it('an unknown privilege fails the start with PLUGIN_LOAD_FAILED naming it', async () => {
    let ran = false;
    // a plugin written against another wakit version (or JavaScript) may name anything
    const plugin = definePlugin({
      name: 'greedy',
      privileges: ['sends'],
      setup: () => {
        ran = true;
      },
    });
    fx.sdk.use({ ...plugin, privileges: ['sends', 'rootShell'] } as unknown as Plugin);
    const error = await rejection(fx.sdk.start());
    expect(error.code).to.equal('PLUGIN_LOAD_FAILED');
    expect(error.message).to.include('greedy').and.include('rootShell');
    expect(error.details).to.deep.include({ plugin: 'greedy', privilege: 'rootShell' });
    expect(ran).to.equal(false);
  });

  it('definePlugin refuses privileges that are not a list of names', () => {
    expect(() =>
      definePlugin({
        name: 'odd',
        privileges: 'sends' as unknown as ['sends'],
        setup: () => undefined,
      }),
    )
      .to.throw()
      .with.property('code', 'VALIDATION_FAILED');
  });
});
