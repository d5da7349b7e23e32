import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { didYouMean, loadConfigFile, parseConfig } from '../../src/config/index.js';
import type { WakitError } from '../../src/errors/index.js';

function problems(input: unknown): WakitError {
  try {
    parseConfig(input);
  } catch (error) {
    return error as WakitError;
  }
  throw new Error('the config was accepted');
}

const messageAt = (error: WakitError, at: string) =>
  error.issues?.find((i) => i.path === at)?.message ?? `(no issue at ${at})`;

describe('config errors in plain words', () => {
  it('suggests the key meant for misspelt keys, at every level', () => {
    const error = problems({
      auth: { type: 'local', datapath: './s' },
      queu: {},
      restt: {},
      log: { levle: 'info' },
    });
    expect(error.code).to.equal('CONFIG_INVALID');
    expect(messageAt(error, 'auth.datapath')).to.equal(
      'unknown key "datapath": did you mean "dataPath"?',
    );
    expect(messageAt(error, 'queu')).to.include('did you mean "queue"?');
    expect(messageAt(error, 'log.levle')).to.include('did you mean "level"?');
    expect(messageAt(error, 'restt')).to.include('the plugin "rest", under "plugins"');
    expect(error.message).to.include('auth.datapath: unknown key "datapath"');
  });

  it('suggests the value meant for misspelt choices and lists the choices', () => {
    const error = problems({ engine: { type: 'simulater' }, log: { level: 'wran' } });
    expect(messageAt(error, 'engine.type'))
      .to.include('"simulator", "whatsapp-web.js"')
      .and.include('did you mean "simulator"?');
    expect(messageAt(error, 'log.level')).to.include('did you mean "warn"?');
  });

  it('says what was expected and what was found, in words, not zod jargon', () => {
    const error = problems({ queue: { minGapMs: 'fast', retries: -2 }, clients: 'bot' });
    expect(messageAt(error, 'queue.minGapMs')).to.equal('must be a number, not the text "fast"');
    expect(messageAt(error, 'queue.retries')).to.equal('must be at least 0 (got -2)');
    expect(messageAt(error, 'clients')).to.include('must be a list');
    expect(error.message).to.not.match(/Invalid input|Too small|Unrecognized/);
  });

  it('gives no suggestion for a word that is nothing like a key, but lists the known keys', () => {
    const error = problems({ auth: { type: 'local', zzzzzzzz: 1 } });
    expect(messageAt(error, 'auth.zzzzzzzz')).to.include('known keys:').and.include('dataPath');
    expect(didYouMean('zzzzzzzz', ['dataPath', 'type'])).to.equal(undefined);
    expect(didYouMean('simulater', ['simulator', 'whatsapp-web.js'])).to.equal('simulator');
  });

  it('reports bad JSON by line and column', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-config-'));
    try {
      const file = path.join(dir, 'bot.config.json');
      await writeFile(file, '{\n  "clients": ["bot"],\n  "auth" { "type": "local" }\n}\n');
      const error = (await loadConfigFile(file).catch((e: unknown) => e)) as WakitError;
      expect(error.code).to.equal('CONFIG_INVALID');
      expect(error.message).to.include('line 3, column 10').and.not.include('position');
      expect(error.details).to.include({ line: 3, column: 10 });
      await writeFile(file, '{\n  "clients": ["bot"],\n');
      const truncated = (await loadConfigFile(file).catch((e: unknown) => e)) as WakitError;
      expect(truncated.message).to.match(/line 3, column 1\b/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('config.schema.json: editor help for built-in plugins', () => {
  it('describes every built-in plugin’s options (or false) under plugins', async () => {
    const schema = JSON.parse(
      await readFile(new URL('../../config.schema.json', import.meta.url), 'utf8'),
    ) as {
      properties: {
        plugins: {
          properties: Record<string, { anyOf: [{ properties: Record<string, unknown> }, unknown] }>;
        };
      };
    };
    const plugins = schema.properties.plugins.properties;
    expect(Object.keys(plugins)).to.have.members([
      'rest',
      'auto-reply',
      'forwarder',
      'media-saver',
      'ai',
    ]);
    expect(plugins.ai?.anyOf[0].properties).to.include.keys('baseURL', 'model', 'apiKey');
    expect(plugins.rest?.anyOf[0].properties).to.include.keys('port', 'tokens', 'webhooks');
    expect(plugins['auto-reply']?.anyOf[0].properties).to.include.keys('rules');
    expect(plugins.forwarder?.anyOf[0].properties).to.include.keys('routes');
    expect(plugins['media-saver']?.anyOf[0].properties).to.include.keys('dir');
    expect(plugins.rest?.anyOf[1]).to.deep.include({ const: false });
  });
});
