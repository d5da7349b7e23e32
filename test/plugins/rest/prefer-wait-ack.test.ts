// The docs' `Prefer: wait` example shows the ack a send really has when the 201 is given (issue 29,
// item 12).
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { CONTACT, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('Prefer: wait answers as the docs show', function () {
  this.timeout(20_000);
  let fx: RestFixture | undefined;
  afterEach(async () => {
    await fx?.close();
  });

  it('201 with the ack of the moment, as in docs/rest-api.md and docs/messages.md', async () => {
    const shown = await Promise.all(
      ['docs/rest-api.md', 'docs/messages.md'].map(async (file) => {
        const line = (await readFile(file, 'utf8'))
          .split('\n')
          .find((l) => l.startsWith('# 201 {') && l.includes('"ack":'));
        return Number(/"ack":(\d)/.exec(line ?? '')?.[1]);
      }),
    );
    fx = await restFixture({ config: { engine: { type: 'simulator', ackDelayMs: 50 } } });
    await fx.link('bot');
    const res = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'hello' },
      headers: { prefer: 'wait=10' },
    });
    expect(res.status).to.equal(201);
    const body = res.json as { status: string; ack: number };
    expect(body.status).to.equal('sent');
    expect(shown).to.deep.equal([body.ack, body.ack]);
  });
});
