import type { SendEntry } from '../send-entry.js';
import type { OutboxStore } from './outbox-store.js';

/**
 * Writes a change of a tracked send to the outbox. A send failed only because the process stops
 * (SHUTTING_DOWN) is not a failure of the send: it stays queued (or in flight) for the next start.
 */
export function journalChange(store: OutboxStore, entry: SendEntry): void {
  if (entry.status === 'failed' && entry.error?.code === 'SHUTTING_DOWN') return;
  store.update(entry.id, {
    status: entry.status,
    attempts: entry.attempts,
    updatedAt: entry.updatedAt,
    ...(entry.messageId !== undefined ? { messageId: entry.messageId } : {}),
    ...(entry.ack !== undefined ? { ack: entry.ack } : {}),
    ...(entry.sentAt ? { sentAt: entry.sentAt } : {}),
    ...(entry.error ? { error: { code: entry.error.code, message: entry.error.message } } : {}),
  });
}
