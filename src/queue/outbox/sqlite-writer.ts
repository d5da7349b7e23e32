/**
 * The SQLite outbox's writer thread (a worker): it owns the connection that writes appends and
 * status changes, one transaction per batch the event loop posts, and answers each batch in order
 * with its outcome or its error. Commits, and the WAL checkpoints they bring on, run here, off the
 * event loop; the event loop keeps a connection of its own for reads (WAL: readers see every
 * committed batch).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { INSERT_SQL, UPDATE_SQL, type Write, type WriteResult } from './sqlite-writes.js';

export interface WriterData {
  file: string;
  synchronous: 'NORMAL' | 'FULL';
  checkpointPages: number;
  maxPages?: number;
}

/** A batch from the event loop, and the answer to it. */
export type WriterRequest = { n: number; writes: Write[] } | 'close';
export type WriterReply = {
  n: number;
  out?: WriteResult;
  error?: { code?: string; message: string };
};

function serve(data: WriterData): void {
  const port = parentPort!;
  const db = new Database(data.file, { fileMustExist: true });
  db.pragma(`synchronous = ${data.synchronous}`);
  db.pragma(`wal_autocheckpoint = ${data.checkpointPages}`);
  db.pragma('busy_timeout = 5000');
  if (data.maxPages !== undefined) db.pragma(`max_page_count = ${data.maxPages}`);
  const insert = db.prepare(INSERT_SQL);
  const update = db.prepare(UPDATE_SQL);
  const byKey = db.prepare('SELECT id, idem_hash FROM sends WHERE idem_scope = ? AND idem_key = ?');

  const write = db.transaction((writes: Write[]): WriteResult => {
    const out: WriteResult = [];
    for (const w of writes) {
      if ('update' in w) {
        update.run(w.update);
        out.push(null);
        continue;
      }
      const found = w.idem && (byKey.get(w.idem) as { id: string; idem_hash: string } | undefined);
      if (found) {
        out.push({ id: found.id, duplicateOf: { id: found.id, hash: found.idem_hash } });
        continue;
      }
      const { lastInsertRowid } = insert.run(w.insert);
      out.push({ id: w.insert[0] as string, seq: Number(lastInsertRowid) });
    }
    return out;
  });

  port.on('message', (request: WriterRequest) => {
    if (request === 'close') {
      db.close();
      port.close();
      return;
    }
    let reply: WriterReply;
    try {
      reply = { n: request.n, out: write(request.writes) };
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      reply = { n: request.n, error: { code, message: message ?? String(error) } };
    }
    port.postMessage(reply);
  });
}

if (parentPort) serve(workerData as WriterData);
