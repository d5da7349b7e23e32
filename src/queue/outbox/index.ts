import path from 'node:path';
import type { WakitConfig } from '../../config/schema.js';
import type { WakitError } from '../../errors/index.js';
import { MemoryOutbox } from './memory-outbox.js';
import type { OutboxStore } from './outbox-store.js';
import { SqliteOutbox } from './sqlite-outbox.js';

export * from './outbox-store.js';
export { decodeContent, encodeContent } from './content-codec.js';
export { journalChange } from './journal.js';
export { DeferredOutbox } from './deferred-outbox.js';

/**
 * The outbox of one server, as the `queue` section says: SQLite under the data directory, or memory.
 * (A fleet's outbox is Redis, shared: src/cluster registers it.)
 */
export function createOutboxStore(
  config: Readonly<WakitConfig>,
  baseDir: string,
  onError: (error: WakitError) => void,
): OutboxStore {
  const queue = config.queue;
  if (queue.persistence === 'memory') return new MemoryOutbox();
  const file = path.resolve(
    baseDir,
    queue.outboxPath ?? path.join(config.auth.dataPath, 'outbox.db'),
  );
  return new SqliteOutbox({ file, durability: queue.durability, onError });
}
