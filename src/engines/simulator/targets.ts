/**
 * Where a message goes on the virtual network: a person (by number or LID), a group the sender is
 * in (and may post to), a channel the sender administers, or status.
 */
import { WakitError } from '../../errors/index.js';
import type { SimAccount } from './account.js';
import type { SimChannelImpl } from './channel.js';
import type { SimGroupImpl } from './group.js';
import { GROUP_SUFFIX, LID_SUFFIX } from './ids.js';

const STATUS_CHAT = 'status@broadcast';

/** A resolved destination: exactly one of account, group, channel or status. */
export interface Target {
  id: string;
  account?: SimAccount;
  group?: SimGroupImpl;
  channel?: SimChannelImpl;
  status?: true;
}

/** What resolving needs of the network. */
export interface TargetHost {
  findGroup(id: string): SimGroupImpl | undefined;
  findChannel(id: string): SimChannelImpl | undefined;
  person(id: string): SimAccount | undefined;
}

/** Where `sender` may post `chatId`: CHAT_NOT_FOUND / PERMISSION_DENIED otherwise. */
export function resolveTarget(host: TargetHost, sender: SimAccount, chatId: string): Target {
  if (chatId.endsWith(GROUP_SUFFIX)) {
    const group = host.findGroup(chatId);
    if (!group)
      throw new WakitError('CHAT_NOT_FOUND', `group ${chatId} does not exist`, {
        details: { chatId },
      });
    if (!group.members.has(sender.id)) {
      throw new WakitError('PERMISSION_DENIED', `${sender.id} is not a member of ${chatId}`, {
        details: { chatId },
      });
    }
    if (group.adminsOnly && !group.admins.has(sender.id)) {
      throw new WakitError('PERMISSION_DENIED', `only admins can send to ${chatId}`, {
        details: { chatId },
      });
    }
    return { id: chatId, group };
  }
  if (chatId === STATUS_CHAT) return { id: chatId, status: true };
  if (chatId.endsWith('@newsletter')) {
    const channel = host.findChannel(chatId);
    if (!channel)
      throw new WakitError('CHAT_NOT_FOUND', `channel ${chatId} does not exist`, {
        details: { chatId },
      });
    if (!channel.admins.has(sender.id)) {
      throw new WakitError('PERMISSION_DENIED', `only admins of ${chatId} can post to it`, {
        details: { chatId },
      });
    }
    return { id: chatId, channel };
  }
  const account = host.person(chatId);
  if (!account) {
    throw new WakitError('CHAT_NOT_FOUND', `${chatId} is not on WhatsApp`, {
      details: { chatId },
    });
  }
  // A chat with a LID user stays the LID chat (as in WhatsApp Web); numbers are by @c.us.
  return { id: chatId.endsWith(LID_SUFFIX) ? chatId : account.id, account };
}
