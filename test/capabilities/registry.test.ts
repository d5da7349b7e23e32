/**
 * The capability table (src/capabilities/): declarations that agree with themselves (arguments
 * are input fields, REST paths name their parameters, operation ids are unique) and a manager
 * method on every client for each of them, validating its arguments before anything else.
 */
import { expect } from 'chai';
import { BotClient, type Sdk } from '../../src/index.js';
import { rejection } from '../helpers/rejection.js';
import { simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

const declarations = BotClient.capabilities;

describe('capability table', () => {
  it('names every declaration area.method, once, with arguments that are input fields', () => {
    const names = declarations.map((c) => c.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const capability of declarations) {
      expect(capability.name, capability.name).to.match(/^[a-z]+\.[a-zA-Z]+$/);
      const fields = Object.keys(capability.input.shape);
      expect(fields, capability.name).to.include.members([...capability.args]);
    }
  });

  it('gives each REST route its own method + path and operationId, with its path parameters', () => {
    const routes = declarations.flatMap((c) => (c.http ? [c.http] : []));
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    const ids = routes.map((r) => r.operationId);
    expect(new Set(keys).size, 'method + path').to.equal(keys.length);
    expect(new Set(ids).size, 'operationId').to.equal(ids.length);
    for (const route of routes) {
      const named = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(route.params?.shape ?? {}), route.operationId).to.have.members(named);
    }
  });

  it('says what each declaration does: a GET route reads, a declared read has no other route', () => {
    for (const capability of declarations) {
      const { effect, http } = capability;
      if (effect === undefined) continue;
      expect(['read', 'additive', 'destructive'], capability.name).to.include(effect);
      if (http?.method === 'GET') expect(effect, capability.name).to.equal('read');
      if (effect === 'read' && http) expect(http.method, capability.name).to.equal('GET');
    }
    // the MCP annotations need it where no GET route says it: the look-ups without a route
    const unrouted = declarations.filter((c) => !c.http && !c.name.includes('.set'));
    for (const capability of unrouted) expect(capability.effect, capability.name).to.equal('read');
  });

  describe('managers', () => {
    let sdk: Sdk;
    let cleanup: () => Promise<void>;

    before(async () => {
      const dir = await tempDir('wakit-capabilities-');
      cleanup = dir.cleanup;
      sdk = simulatorSdk(dir.dir);
    });
    after(async () => {
      await sdk.stop({ drainTimeoutMs: 100 });
      await cleanup();
    });

    it('a client has client.<area>.<method> for every declaration', () => {
      const client = sdk.createClient({ name: 'bot' }) as unknown as Record<
        string,
        Record<string, unknown>
      >;
      for (const { name } of declarations) {
        const [area = '', method = ''] = name.split('.');
        expect(typeof client[area]?.[method], name).to.equal('function');
      }
    });

    it('checks arguments before the state: VALIDATION_FAILED naming the argument', async () => {
      const client = sdk.createClient({ name: 'idle' });
      const bad = await rejection(client.calls.reject(5 as unknown as string));
      expect(bad.code).to.equal('VALIDATION_FAILED');
      expect(bad.issues?.map((i) => i.path)).to.deep.equal(['callId']);
      expect((await rejection(client.chats.pin('not a chat'))).code).to.equal('INVALID_CHAT_ID');
      expect((await rejection(client.calls.reject('ABC123'))).code).to.equal('CLIENT_NOT_READY');
    });

    it('a queued method checks its arguments and options object before it queues anything', async () => {
      const client = sdk.createClient({ name: 'queued' });
      const bad = await rejection(client.presence.send('15550001111', 'dancing' as never));
      expect(bad.issues?.map((i) => i.path)).to.deep.equal(['state']);
      const options = await rejection(client.presence.setOnline(true, 5 as never));
      expect(options.code).to.equal('VALIDATION_FAILED');
      expect(options.issues?.map((i) => i.path)).to.deep.equal(['options']);
      expect(client.info().queue.pending).to.equal(0);
    });
  });
});
