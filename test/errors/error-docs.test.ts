import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { ERROR_CODES, WakitError, toWakitError } from '../../src/errors/index.js';

describe('error codes', () => {
  it('docs/errors.md documents every code with its status, when and what to do, and nothing else', async () => {
    const doc = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const sections = [
      ...doc.matchAll(
        /^### `([A-Z_]+)`\n\nHTTP (\d{3}) · ([^·\n]+) · [^\n]+\n\nWhen: .+\n\nWhat to do: .+$/gm,
      ),
    ].map((m) => [m[1], Number(m[2]), m[3]?.trim()]);
    const table = Object.entries(ERROR_CODES).map(([code, v]) => [code, v.status, v.title]);
    expect(sections).to.deep.equal(table);
  });

  it('WakitError carries code, status, details and cause', () => {
    const cause = new Error('boom');
    const error = new WakitError('CHAT_NOT_FOUND', 'no such chat', {
      details: { chatId: 'x' },
      cause,
    });
    expect(error).to.include({ code: 'CHAT_NOT_FOUND', status: 404, message: 'no such chat' });
    expect(error.cause).to.equal(cause);
    expect(error.transient).to.equal(false);
    expect(error.toJSON()).to.deep.equal({
      code: 'CHAT_NOT_FOUND',
      status: 404,
      message: 'no such chat',
      details: { chatId: 'x' },
    });
    expect(toWakitError(cause, 'ENGINE_ERROR')).to.include({
      code: 'ENGINE_ERROR',
      message: 'boom',
    });
    expect(toWakitError(error)).to.equal(error);
  });
});

describe('WakitError across module copies', () => {
  it('is recognised by its brand, not by the class identity', async () => {
    // a second copy of the module, as when two installs of wakit are loaded
    const copy = (await import(`../../src/errors/wakit-error.js?copy=${Date.now()}`)) as {
      WakitError: typeof WakitError;
    };
    const foreign = new copy.WakitError('BROWSER_NOT_FOUND', 'no chromium');
    expect(foreign).to.be.instanceOf(WakitError);
    expect(toWakitError(foreign)).to.equal(foreign);
    expect(toWakitError(foreign).transient).to.equal(false);
    expect(new Error('x')).to.not.be.instanceOf(WakitError);
  });
});
