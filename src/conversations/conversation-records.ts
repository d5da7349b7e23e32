/** The plain helpers of the conversation service: its store, keys, and what it shows of a record. */
import path from 'node:path';
import type { Message } from '../client/inbound/message.js';
import type { WakitConfig } from '../config/schema.js';
import { WakitError } from '../errors/index.js';
import { deferredConversationStore } from './store/deferred-conversation-store.js';
import { MemoryConversationStore } from './store/memory-conversation-store.js';
import { SqliteConversationStore } from './store/sqlite-conversation-store.js';
import type { ConversationRecord, ConversationStore } from './store/conversation-store.js';
import type { ConversationInfo, Reply } from './types.js';

/** The store `conversations.store` names: `auto` is Redis in a fleet, SQLite alone. */
export function storeKindOf(config: Readonly<WakitConfig>): ConversationStore['kind'] {
  const kind = config.conversations.store;
  if (kind !== 'auto') return kind;
  return config.cluster ? 'redis' : 'sqlite';
}

/** The configured store: SQLite beside the outbox by default, Redis in a fleet, memory for tests. */
export function createConversationStore(
  config: Readonly<WakitConfig>,
  baseDir: string,
  now: () => number,
): ConversationStore {
  const settings = config.conversations;
  const kind = storeKindOf(config);
  if (kind === 'memory') return new MemoryConversationStore(now);
  const cluster = config.cluster;
  if (kind === 'redis' && cluster) {
    // the fleet's code (src/cluster, ioredis) is loaded only in a fleet
    const loading = import('../cluster/conversations/redis-conversation-store.js');
    return deferredConversationStore(
      'redis',
      loading.then((m) => m.createRedisConversationStore(cluster, now)),
    );
  }
  const file = path.resolve(
    baseDir,
    settings.path ?? path.join(config.auth.dataPath, 'conversations.db'),
  );
  return new SqliteConversationStore(file, now);
}

/** The lane and in-memory key of a chat member. */
export function keyOf(r: { client: string; chatId: string; member: string }): string {
  return `${r.client}\n${r.chatId}\n${r.member}`;
}

export function replyOf(message: Message, at: number): Reply {
  return {
    kind: 'message',
    id: message.id,
    body: message.body,
    type: message.type,
    from: message.sender.id,
    ...(message.quotedMessageId ? { quotedMessageId: message.quotedMessageId } : {}),
    ...(message.media ? { media: message.media } : {}),
    ...(message.location ? { location: message.location } : {}),
    ...(message.vcards ? { vcards: message.vcards } : {}),
    at,
  };
}

export function info(record: ConversationRecord): ConversationInfo {
  return {
    id: record.id,
    name: record.name,
    version: record.version,
    client: record.client,
    chatId: record.chatId,
    member: record.member,
    startedAt: new Date(record.startedAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
    steps: record.steps,
    ...(record.wait.dueAt !== undefined
      ? {
          timer: {
            at: new Date(record.wait.dueAt).toISOString(),
            action: record.wait.phase ?? 'expire',
          },
        }
      : {}),
  };
}

export function notFound(id: string): WakitError {
  return new WakitError('CONVERSATION_NOT_FOUND', `No active conversation ${id}`, {
    details: { id },
  });
}
