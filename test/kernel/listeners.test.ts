/**
 * The one helper for calling listeners safely (src/kernel/listeners.ts), and the places that use
 * it: a listener that throws or rejects no longer stops the listeners after it, never throws into
 * whoever emitted, and its failure reaches the error sink where one is in reach.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { callSafely, Listeners } from '../../src/kernel/listeners.js';
import { ErrorSink, type WakitErrorEvent } from '../../src/kernel/error-sink.js';
import { EngineEmitter } from '../../src/engines/engine-emitter.js';
import { simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

const silent = pino({ level: 'silent' });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('safe listener calls (src/kernel/listeners.ts)', () => {
  it('callSafely returns the result, or hands a throw or a rejection to onError', async () => {
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    expect(callSafely((a: number, b: number) => a + b, [2, 3], onError)).to.equal(5);
    const boom = new Error('boom');
    expect(
      callSafely(
        () => {
          throw boom;
        },
        [],
        onError,
      ),
    ).to.equal(undefined);
    const late = new Error('late');
    void callSafely(() => Promise.reject(late), [], onError);
    await settle();
    expect(errors).to.deep.equal([boom, late]);
  });

  it('Listeners.emit calls every listener in order, past one that throws or rejects', async () => {
    const failures: [unknown, string][] = [];
    const listeners = new Listeners<[word: string]>((error, word) => failures.push([error, word]));
    const heard: string[] = [];
    const first = new Error('first');
    const second = new Error('second');
    listeners.add((w) => heard.push(`a:${w}`));
    listeners.add(() => {
      throw first;
    });
    listeners.add(() => Promise.reject(second));
    listeners.add((w) => heard.push(`d:${w}`));
    expect(() => listeners.emit('hi')).to.not.throw();
    await settle();
    expect(heard).to.deep.equal(['a:hi', 'd:hi']);
    expect(failures).to.deep.equal([
      [first, 'hi'],
      [second, 'hi'],
    ]);
  });

  it('Listeners: add returns the remover; a listener may remove itself while emitting', () => {
    const listeners = new Listeners<[]>(() => expect.fail('no listener throws'));
    let calls = 0;
    const remove = listeners.add(() => {
      calls += 1;
      remove();
    });
    const other = () => {
      calls += 10;
    };
    listeners.add(other);
    listeners.emit();
    listeners.emit();
    expect(calls).to.equal(21);
    expect(listeners.size).to.equal(1);
    expect(listeners.delete(other)).to.equal(true);
    expect(listeners.size).to.equal(0);
  });

  it('the error sink: a throwing sdk.on("error") listener does not keep the next from hearing', () => {
    const sink = new ErrorSink(silent);
    const heard: WakitErrorEvent[] = [];
    sink.on(() => {
      throw new Error('listener bug');
    });
    sink.on((event) => heard.push(event));
    sink.report({ source: 'queue', error: new Error('disk full') });
    expect(heard.map((e) => [e.source, e.error.message])).to.deep.equal([['queue', 'disk full']]);
  });

  it('an engine event: a throwing listener no longer stops the listeners after it', () => {
    class TestEngine extends EngineEmitter {}
    const engine = new TestEngine(silent);
    const heard: string[] = [];
    engine.on('qr', () => {
      throw new Error('listener bug');
    });
    engine.on('qr', (qr) => heard.push(`on:${qr}`));
    engine.once('qr', (qr) => heard.push(`once:${qr}`));
    expect(() => engine.fire('qr', 'Q1')).to.not.throw();
    engine.fire('qr', 'Q2');
    expect(heard).to.deep.equal(['on:Q1', 'once:Q1', 'on:Q2']);
  });

  describe('sdk.onClient', () => {
    let dir: { dir: string; cleanup: () => Promise<void> };
    beforeEach(async () => {
      dir = await tempDir();
    });
    afterEach(() => dir.cleanup());

    it('a throwing onClient listener is reported once; createClient and the others go on', async () => {
      const sdk = simulatorSdk(dir.dir);
      const reported: WakitErrorEvent[] = [];
      sdk.on('error', (event) => reported.push(event));
      const seen: string[] = [];
      sdk.onClient(() => {
        throw new Error('onClient bug');
      });
      sdk.onClient((client) => seen.push(client.name));
      const client = sdk.createClient({ name: 'alpha' });
      expect(client.name).to.equal('alpha');
      expect(sdk.clients.map((c) => c.name)).to.deep.equal(['alpha']);
      expect(seen).to.deep.equal(['alpha']);
      // a listener added later hears the existing clients, as safely
      const unsubscribe = sdk.onClient(() => Promise.reject(new Error('late bug')));
      await settle();
      expect(reported.map((e) => [e.source, e.event, e.client, e.error.message])).to.deep.equal([
        ['handler', 'client', 'alpha', 'onClient bug'],
        ['handler', 'client', 'alpha', 'late bug'],
      ]);
      unsubscribe();
      await sdk.stop();
    });
  });
});
