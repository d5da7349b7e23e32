/**
 * whatsapp-web.js group notifications (Client.js:588-644: `gp2` messages become `group_join`,
 * `group_leave`, `group_admin_changed` and `group_update` with a GroupNotification) to our
 * `group.join` / `group.leave` / `group.update` events.
 */
import type { GroupChange, GroupSettings } from '../ports/groups.js';
import type { Attempt } from './attempt.js';
import type { GroupChatLike } from './group-types.js';
import type { AttemptHost } from './attempt-host.js';

/** `GroupNotification` (structures/GroupNotification.js). */
export interface GroupNotificationLike {
  /** `add`, `invite`, `linked_group_join`, `remove`, `leave`, `promote`, `demote`, `subject`, ... */
  type: string;
  body?: string;
  /** Unix seconds. */
  timestamp: number;
  chatId: string;
  author?: string;
  recipientIds?: Array<string | { _serialized: string }>;
}

type Live = <A extends unknown[]>(handler: (...args: A) => void) => (...args: A) => void;

const ids = (n: GroupNotificationLike): string[] =>
  (n.recipientIds ?? []).map((r) => (typeof r === 'string' ? r : r._serialized));

const JOIN_HOW = { add: 'added', invite: 'invite_link', linked_group_join: 'community' } as const;

/** Subscribes to the group events of an attempt's client. */
export function wireGroupEvents(attempt: Attempt, host: AttemptHost, live: Live): void {
  const { client } = attempt;
  const by = (n: GroupNotificationLike) => (n.author ? { by: n.author } : {});
  client.on(
    'group_join',
    live((n: GroupNotificationLike) => {
      const how = JOIN_HOW[n.type as keyof typeof JOIN_HOW] ?? 'added';
      host.fire('group.join', {
        groupId: n.chatId,
        participants: ids(n),
        how,
        ...(how === 'added' ? by(n) : {}),
        timestamp: n.timestamp,
      });
    }),
  );
  client.on(
    'group_leave',
    live((n: GroupNotificationLike) => {
      host.fire('group.leave', {
        groupId: n.chatId,
        participants: ids(n),
        how: n.type === 'remove' ? 'removed' : 'left',
        ...by(n),
        timestamp: n.timestamp,
      });
    }),
  );
  client.on(
    'group_admin_changed',
    live((n: GroupNotificationLike) => {
      host.fire('group.update', {
        groupId: n.chatId,
        change: n.type === 'demote' ? 'demote' : 'promote',
        participants: ids(n),
        ...by(n),
        timestamp: n.timestamp,
      });
    }),
  );
  client.on(
    'group_update',
    live((n: GroupNotificationLike) => {
      if (n.type === 'create') {
        // A group made with this account in it: everyone listed (or we) joined, added by its creator.
        const own = host.ownId();
        const participants = ids(n).length > 0 ? ids(n) : own ? [own] : [];
        host.fire('group.join', {
          groupId: n.chatId,
          participants,
          how: 'added',
          ...by(n),
          timestamp: n.timestamp,
        });
        return;
      }
      if (n.type === 'picture') {
        host.fire('group.update', {
          groupId: n.chatId,
          change: 'picture',
          ...by(n),
          timestamp: n.timestamp,
        });
        return;
      }
      if (!['subject', 'description', 'announce', 'restrict'].includes(n.type)) {
        host.log.debug({ type: n.type, groupId: n.chatId }, 'group notification not mapped');
        return;
      }
      // The new values are read from the group itself (the notification's body is only text).
      readChange(attempt, n).then(
        (change) => {
          if (host.isLive(attempt))
            host.fire('group.update', {
              ...change,
              groupId: n.chatId,
              ...by(n),
              timestamp: n.timestamp,
            });
        },
        (error: unknown) => host.report('group.update', error),
      );
    }),
  );
}

async function readChange(attempt: Attempt, n: GroupNotificationLike): Promise<GroupChange> {
  // not reported: without the chat the change is read from the notification itself
  const chat = (await attempt.client.getChatById(n.chatId).catch(() => undefined)) as
    GroupChatLike | undefined;
  const meta = chat?.groupMetadata;
  switch (n.type) {
    case 'subject':
      return { change: 'subject', subject: chat?.name ?? n.body ?? '' };
    case 'description':
      return { change: 'description', description: meta?.desc ?? n.body ?? '' };
    default: {
      const settings: Partial<GroupSettings> = {};
      const on = n.body === 'on';
      if (n.type === 'announce') settings.messagesAdminsOnly = meta ? Boolean(meta.announce) : on;
      else settings.infoAdminsOnly = meta ? Boolean(meta.restrict) : on;
      return { change: 'settings', settings };
    }
  }
}
