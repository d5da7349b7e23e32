/**
 * A send the governor deferred keeps its due time in its outbox row: after a restart the queue
 * defers it again until that time without asking the governor, then asks it and sends it. And the
 * SQLite outbox of an older version gets the new columns (due time, bypassBudget) on open.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import path from 'node:path';
import type sinon from 'sinon';
import { queueSchema } from '../../src/config/schema.js';
import { SqliteOutbox } from '../../src/queue/outbox/sqlite-outbox.js';
import { journalChange } from '../../src/queue/outbox/journal.js';
import { outboxBacklog } from '../../src/client/send/outbox-backlog.js';
import { OutboundQueue, type SendGate, type TrackedSend } from '../../src/queue/index.js';
import { tempDir } from '../helpers/sdk-fixtures.js';
import { NO_PACING, T0, fakeClock, flush } from './queue-helpers.js';

const MINUTE = 60_000;
const N = 25;

/** A gate that defers every send until `until`, then lets each go; it counts what it was asked. */
function gate(until: () => number): SendGate & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    check(send, now) {
      asked.push(send.id);
      return Promise.resolve(
        now < until() ? { budget: 'perHour', dueAt: until() + Number(send.id.slice(1)) } : 'go',
      );
    },
  };
}

function openOutbox(file: string): SqliteOutbox {
  return new SqliteOutbox({ file, durability: 'default', onError: (e) => expect.fail(e.message) });
}

describe('queue: deferrals are journaled with the send and survive a restart', () => {
  let clock: sinon.SinonFakeTimers;
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-deferred-'));
    clock = fakeClock();
  });
  afterEach(async () => {
    clock.restore();
    await cleanup();
  });

  function queueOver(outbox: SqliteOutbox, sendGate: SendGate, sent: string[]): OutboundQueue {
    const queue = new OutboundQueue({
      client: 'bot',
      config: queueSchema.parse({ ...NO_PACING, memoryWindow: 10 }),
      gate: sendGate,
      onChange: (entry) => journalChange(outbox, entry),
    });
    queue.pageTo(
      outboxBacklog({
        client: 'bot',
        outbox,
        account: () => null,
        deliver: (chatId) => {
          sent.push(chatId);
          return Promise.resolve({ id: `m${sent.length}` });
        },
      }),
    );
    return queue;
  }

  it(`${N} deferred sends: the restarted queue defers each until its journaled due time, asks the governor only then, and sends all`, async () => {
    const file = path.join(dir, 'outbox.db');
    let outbox = openOutbox(file);
    const dueFrom = T0 + 30 * MINUTE;
    const first = gate(() => dueFrom);
    const sent: string[] = [];
    let queue = queueOver(outbox, first, sent);
    for (let n = 0; n < N; n++) {
      const { seq } = await outbox.append({
        id: `s${n}`,
        client: 'bot',
        account: null,
        chatId: `c${n}@c.us`,
        kind: 'text',
        priority: 'bulk',
        content: JSON.stringify({ kind: 'text', text: `t${n}` }),
        createdAt: T0,
      });
      queue.enqueue({
        id: `s${n}`,
        seq,
        chatId: `c${n}@c.us`,
        kind: 'text',
        priority: 'bulk',
        run: () => Promise.resolve({ id: `x${n}` }),
      });
    }
    for (let i = 0; i < 50 && first.asked.length < N; i++) await flush();
    for (let i = 0; i < 3; i++) await flush(); // the last answer is applied
    expect(first.asked).to.have.length(N);
    expect(queue.stats().pending).to.equal(N);
    queue.close();
    await outbox.close(); // as a crash: the rows are all that is left

    // The restart: a new outbox and queue over the same file; the governor would let all go now.
    outbox = openOutbox(file);
    const second = gate(() => 0);
    const records = new Map<string, TrackedSend>();
    queue = queueOver(outbox, second, sent);
    queue.on('update', (record) => records.set(record.id, record));
    queue.restore(await outbox.countOpen('bot'));
    for (let i = 0; i < 20 && records.size < N; i++) await flush();
    const deferred = [...records.values()].filter((r) => r.status === 'deferred');
    expect(deferred, 'every one deferred again').to.have.length(N);
    for (const record of deferred) {
      const due = dueFrom + Number(record.id.slice(1));
      expect(record.dueAt, record.id).to.equal(new Date(due).toISOString());
    }
    expect(second.asked, 'the governor is not asked before the due time').to.have.length(0);
    await clock.tickAsync(30 * MINUTE - 1);
    expect(sent).to.have.length(0);
    await clock.tickAsync(N + 1);
    for (let i = 0; i < 50 && sent.length < N; i++) await clock.tickAsync(1);
    expect(second.asked).to.have.length(N);
    expect(sent, 'all sent once due').to.have.length(N);
    expect(new Set(sent).size).to.equal(N);
    queue.close();
    await outbox.close();
  });

  it('an outbox file of an older version gets the new columns on open and keeps its rows; bypassBudget and the due time come back with the send', async () => {
    const file = path.join(dir, 'old.db');
    const old = new Database(file);
    old.exec(`CREATE TABLE sends (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
      client TEXT NOT NULL, account TEXT, chat_id TEXT NOT NULL, kind TEXT NOT NULL,
      priority TEXT NOT NULL, content TEXT NOT NULL, media BLOB, idem_scope TEXT, idem_key TEXT,
      idem_hash TEXT, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, message_id TEXT,
      ack INTEGER, error_code TEXT, error_message TEXT, created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL, sent_at INTEGER);
      INSERT INTO sends (id, client, chat_id, kind, priority, content, status, created_at, updated_at)
      VALUES ('old1', 'bot', 'c@c.us', 'text', 'bulk', '{}', 'queued', 1, 1);`);
    old.close();
    const outbox = openOutbox(file);
    await outbox.append({
      id: 'new1',
      client: 'bot',
      account: null,
      chatId: 'd@c.us',
      kind: 'text',
      priority: 'bulk',
      content: '{}',
      createdAt: T0,
      bypassBudget: true,
    });
    outbox.defer('old1', { budget: 'perDay', dueAt: T0 + 5 });
    const open = await outbox.open('bot');
    expect(open.map((o) => o.id)).to.deep.equal(['old1', 'new1']);
    expect(open[0].deferral).to.deep.equal({ budget: 'perDay', dueAt: T0 + 5 });
    expect(open[0].bypassBudget).to.equal(undefined);
    expect(open[1].bypassBudget).to.equal(true);
    expect(open[1].deferral).to.equal(undefined);
    await outbox.close();
  });
});
