import type { Appended, OutboxChange, OutboxEntry } from './outbox-store.js';

/**
 * The SQLite outbox's writes as plain data: what the event loop hands its writer thread
 * (sqlite-writer.ts) for one group commit, positional so that nothing is looked up by name twice.
 */
export type Write =
  { insert: unknown[]; idem: readonly [scope: string, key: string] | null } | { update: unknown[] };

/** What one batch gives back, in order: an append's outcome, null for an update. */
export type WriteResult = Array<Appended | null>;

export const INSERT_SQL = `INSERT INTO sends (id, client, account, chat_id, kind, priority, content,
    media, idem_scope, idem_key, idem_hash, status, attempts, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?)`;

export const UPDATE_SQL = `UPDATE sends SET status = ?, attempts = ?, updated_at = ?,
  message_id = COALESCE(?, message_id), ack = COALESCE(?, ack),
  sent_at = COALESCE(?, sent_at), error_code = ?, error_message = ?
  WHERE id = ?`;

export function insertWrite(entry: OutboxEntry): Write {
  const idem = entry.idempotency;
  return {
    insert: [
      entry.id,
      entry.client,
      entry.account,
      entry.chatId,
      entry.kind,
      entry.priority,
      entry.content,
      entry.media ?? null,
      idem?.scope ?? null,
      idem?.key ?? null,
      idem?.hash ?? null,
      entry.createdAt,
      entry.createdAt,
    ],
    idem: idem ? [idem.scope, idem.key] : null,
  };
}

export function updateParams(id: string, change: OutboxChange): unknown[] {
  return [
    change.status,
    change.attempts,
    change.updatedAt,
    change.messageId ?? null,
    change.ack ?? null,
    change.sentAt ?? null,
    change.error?.code ?? null,
    change.error?.message ?? null,
    id,
  ];
}
