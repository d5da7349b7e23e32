import { WakitError } from '../../errors/index.js';
import type { BacklogSource, PagedJob } from '../../queue/index.js';
import { decodeContent, type OpenEntry, type OutboxStore } from '../../queue/outbox/index.js';
import { isActionKind, isLightKind } from './action-contract.js';
import type { OutgoingContent } from '../types.js';

export interface OutboxBacklogDeps {
  client: string;
  outbox: OutboxStore;
  /** The linked account (`me` id) now, or null. */
  account(): string | null;
  /** Makes the send through the engine, refusing another account than `account`. */
  deliver(
    chatId: string,
    content: OutgoingContent,
    account: string | null,
  ): Promise<{ id: string }>;
}

/**
 * The outbox as the backlog of one client's outbound queue: the waiting sends beyond the queue's
 * window are loaded from it page by page, and failed in it at once when the session ends. A loaded
 * send keeps only its journaled JSON until it is its turn (its media bytes are read then), and one
 * accepted for another account than the one linked now fails with SESSION_EXPIRED: never sent.
 */
export function outboxBacklog(deps: OutboxBacklogDeps): BacklogSource {
  const { client, outbox } = deps;
  return {
    async load(priority, after, limit) {
      const rows = await outbox.openPage({ client, priority, after }, limit);
      const account = deps.account();
      return rows.map((row) => journaledJob(deps, row, account));
    },
    fail(priority, after, error, now, except) {
      return outbox.failOpen(
        { client, priority, after },
        { updatedAt: now, error: { code: error.code, message: error.message }, except },
      );
    },
  };
}

/**
 * A journaled send as a queue job (loaded from the backlog, or released when its time came): its
 * content is decoded when it is its turn; one accepted for another account than the one linked now
 * (`account`) carries SESSION_EXPIRED and is never sent.
 */
export function journaledJob(
  deps: Pick<OutboxBacklogDeps, 'outbox' | 'deliver'>,
  row: OpenEntry,
  account: string | null,
): PagedJob {
  const { outbox } = deps;
  const job: PagedJob = {
    id: row.id,
    seq: row.seq,
    createdAt: row.createdAt,
    chatId: row.chatId,
    kind: row.kind,
    priority: row.priority,
    ...(isActionKind(row.kind) ? { action: isLightKind(row.kind) ? 'light' : 'paced' } : {}),
    ...(row.bypassBudget ? { bypassBudget: true } : {}),
    ...(row.deferral ? { deferral: row.deferral } : {}),
    ...(row.sendAt !== undefined ? { sendAt: row.sendAt } : {}),
    run: async () =>
      deps.deliver(
        row.chatId,
        await decodeContent(row.content, () => outbox.media(row.id)),
        row.account,
      ),
  };
  if (row.account && account && row.account !== account) {
    job.error = new WakitError(
      'SESSION_EXPIRED',
      `Accepted for account ${row.account}, but ${account} is linked now: not sent`,
    );
  }
  return job;
}
