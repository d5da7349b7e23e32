import type { SendEntry } from '../send-entry.js';
import type { OutboxChange, OutboxStore } from './outbox-store.js';

/**
 * Writes a change of a tracked send to the outbox, when it matters after a restart: the outcome
 * (sent, failed) and the delivery progress (delivered, read, played). `queued` is what the append
 * wrote, and `sending` recovers like `queued`, so neither is written; nor is an ack that does not
 * change the status. A send failed only because the process stops (SHUTTING_DOWN) is not a failure
 * of the send: it stays queued for the next start.
 */
export function journalChange(store: OutboxStore, entry: SendEntry): void {
  // `held` and `deferred` stay `queued` in the outbox: a restart sends a held one again (after an
  // upgrade, hopefully); a deferred one keeps its due time in its row and waits for it again.
  const { status } = entry;
  if (status === 'deferred' && entry.deferral) store.defer(entry.id, entry.deferral, entry.seq);
  if (status === 'queued' || status === 'sending' || status === 'held' || status === 'deferred') {
    return;
  }
  if (entry.status === entry.journaled) return;
  if (entry.status === 'failed' && entry.error?.code === 'SHUTTING_DOWN') return;
  entry.journaled = entry.status;
  const change: OutboxChange = {
    status: entry.status,
    attempts: entry.attempts,
    updatedAt: entry.updatedAt,
  };
  if (entry.messageId !== undefined) change.messageId = entry.messageId;
  if (entry.ack !== undefined) change.ack = entry.ack;
  if (entry.sentAt) change.sentAt = entry.sentAt;
  if (entry.error) change.error = { code: entry.error.code, message: entry.error.message };
  store.update(entry.id, change, entry.seq);
}
