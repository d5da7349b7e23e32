import { expect } from 'chai';
import { CONTACT_ID, FaultDir, killAll, startServer, type ChildServer } from './child-server.js';

type Priority = 'reply' | 'normal' | 'bulk';

/** Accepts one send through the child's SDK (stdin) and waits for its tracking id. */
async function enqueue(server: ChildServer, text: string, priority: Priority): Promise<string> {
  server.command({ cmd: 'enqueue', to: CONTACT_ID, text, priority });
  const answer = await server.waitFor(
    `acceptance of ${text}`,
    (l) => (l.event === 'accepted' || l.event === 'refused') && l.text === text,
  );
  expect(answer.event, JSON.stringify(answer)).to.equal('accepted');
  return String(answer.id);
}

describe('faults: recovery order and priority after a SIGKILL (child processes)', function () {
  this.timeout(240_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it('unfinished sends of mixed priority go out after the restart by priority, in acceptance order within one', async () => {
    // A minute between sends: the first goes at once, every other one is still waiting at the kill.
    const first = await startServer(dir, { queue: { minGapMs: 60_000 } });
    const plan: [string, Priority][] = [
      ['b0', 'bulk'],
      ['n1', 'normal'],
      ['b2', 'bulk'],
      ['r3', 'reply'],
      ['n4', 'normal'],
      ['b5', 'bulk'],
      ['r6', 'reply'],
      ['n7', 'normal'],
      ['r8', 'reply'],
      ['b9', 'bulk'],
      ['n10', 'normal'],
      ['r11', 'reply'],
    ];
    const ids = new Map<string, string>();
    for (const [text, priority] of plan) ids.set(text, await enqueue(first, text, priority));
    await first.waitFor('b0 out', (l) => l.event === 'received' && l.body === 'b0');
    // Its `sent` is journaled too (so it is outside the at-least-once window of this test).
    const journaled = await waitSent(first, ids.get('b0')!);
    expect(journaled).to.equal(true);
    await first.kill('SIGKILL');
    expect(dir.received().map((r) => r.body)).to.deep.equal(['b0']);

    const second = await startServer(dir, { queue: { minGapMs: 20 } });
    const recovered = await second.waitFor('recovery log line', (l) =>
      /recovered from the outbox/.test(String(l.msg)),
    );
    expect(recovered.count).to.equal(plan.length - 1);
    await second.waitFor(
      'all sent',
      (l) => l.event === 'received' && Number(l.count) === plan.length - 1,
    );
    expect(dir.received().map((r) => r.body)).to.deep.equal([
      'b0',
      ...['r3', 'r6', 'r8', 'r11'],
      ...['n1', 'n4', 'n7', 'n10'],
      ...['b2', 'b5', 'b9'],
    ]);
    await second.kill('SIGTERM');
  });
});

/** Waits until GET /api/v1/messages/{id} says sent (or further: delivered, read). */
async function waitSent(server: ChildServer, id: string): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const res = await server.request('GET', `/api/v1/messages/${id}`);
    const status = (res.json as { status?: string } | undefined)?.status ?? '';
    if (['sent', 'delivered', 'read'].includes(status)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
