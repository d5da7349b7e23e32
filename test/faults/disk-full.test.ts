import { expect } from 'chai';
import {
  CONTACT_ID,
  FaultDir,
  eventually,
  killAll,
  startServer,
  type ChildServer,
} from './child-server.js';

const text = (server: ChildServer, content: string) =>
  server.request('POST', '/api/v1/messages', { json: { chatId: CONTACT_ID, content } });

describe('faults: the outbox cannot grow (a file-size limit on the process, child processes)', function () {
  this.timeout(240_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it('a send that does not fit is refused with a code and never sent; every send accepted before and after survives a SIGKILL', async () => {
    // 512 KiB per file (ulimit -f): SQLite's write of a 600 KB document fails with EFBIG.
    const first = await startServer(dir, { fileSizeLimitKb: 512, queue: { minGapMs: 60_000 } });
    const accepted = new Map<string, string>();
    for (const body of ['before-1', 'before-2', 'before-3']) {
      const res = await text(first, body);
      expect(res.status).to.equal(202);
      accepted.set(body, (res.json as { id: string }).id);
    }
    const big = await first.request('POST', '/api/v1/messages', {
      json: {
        chatId: CONTACT_ID,
        content: {
          type: 'document',
          data: Buffer.alloc(600_000, 7).toString('base64'),
          mimetype: 'application/octet-stream',
          filename: 'big.bin',
          caption: 'too-big',
        },
      },
    });
    expect(big.status, JSON.stringify(big.json)).to.equal(503);
    const problem = big.json as { code: string; detail?: string };
    expect(problem.code).to.equal('STORAGE_UNAVAILABLE');
    expect(JSON.stringify(problem)).to.not.match(/\n\s+at /);
    const after = await text(first, 'after-full');
    expect(after.status, 'space the refused send did not take is used again').to.equal(202);
    accepted.set('after-full', (after.json as { id: string }).id);
    for (const [body, id] of accepted) {
      const res = await first.request('GET', `/api/v1/messages/${id}`);
      expect(res.status, body).to.equal(200);
    }
    // The first send went out at once; once its `sent` is journaled, nothing is in flight.
    const journaled = await eventually(async () => {
      const res = await first.request('GET', `/api/v1/messages/${accepted.get('before-1')!}`);
      return ['sent', 'delivered', 'read'].includes((res.json as { status: string }).status);
    });
    expect(journaled).to.equal(true);
    await first.kill('SIGKILL');

    const second = await startServer(dir, { queue: { minGapMs: 5 } });
    await second.waitFor(
      'the last accepted send',
      (l) => l.event === 'received' && l.body === 'after-full',
    );
    expect(dir.received().map((r) => r.body)).to.deep.equal([
      'before-1',
      'before-2',
      'before-3',
      'after-full',
    ]);
    for (const [body, id] of accepted) {
      const res = await second.request('GET', `/api/v1/messages/${id}`);
      expect(res.status, body).to.equal(200);
    }
    await second.kill('SIGTERM');
  });
});
