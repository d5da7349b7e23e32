/**
 * What one simulator engine does on its linked account (`engine.ops`), area by area, through the
 * network's models: groups (groups.ts, the account's `SimGroupActions`), chats and contacts
 * (chats.ts, contacts.ts), calls (calls.ts), quoted messages (message-kinds.ts), actions and
 * presence (actions.ts). Each needs the account linked and ready (CLIENT_NOT_READY, a rejection);
 * pairing and health are the engine's own (`account`).
 */
import type { EngineOps } from '../engine.js';
import type { AccountOps } from '../ports/account.js';
import type { GroupOps } from '../ports/groups.js';
import type { SimAccount } from './account.js';
import { fetchMessages, getChat, listChats, pinChat } from './chats.js';
import { getContact, listContacts, numberId, profilePictureUrl, setBlocked } from './contacts.js';
import { onAccount, type SimDevice } from './device.js';
import { quotedMessage } from './message-kinds.js';

export function simulatorOps(device: SimDevice, account: AccountOps): EngineOps {
  const { network } = device;
  /** On the account's groups; CLIENT_NOT_READY is a rejection like every other failure. */
  const groups = async <T>(fn: (model: GroupOps) => Promise<T>): Promise<T> =>
    fn(device.ready().groups);
  const on = <T>(fn: (me: SimAccount) => T): Promise<T> => onAccount(device, fn);
  return {
    account,
    groups: {
      create: (subject, participants) => groups((g) => g.create(subject, participants)),
      get: (groupId) => groups((g) => g.get(groupId)),
      addParticipants: (groupId, ids) => groups((g) => g.addParticipants(groupId, ids)),
      removeParticipants: (groupId, ids) => groups((g) => g.removeParticipants(groupId, ids)),
      promoteParticipants: (groupId, ids) => groups((g) => g.promoteParticipants(groupId, ids)),
      demoteParticipants: (groupId, ids) => groups((g) => g.demoteParticipants(groupId, ids)),
      setSubject: (groupId, subject) => groups((g) => g.setSubject(groupId, subject)),
      setDescription: (groupId, text) => groups((g) => g.setDescription(groupId, text)),
      setSettings: (groupId, settings) => groups((g) => g.setSettings(groupId, settings)),
      getInviteCode: (groupId) => groups((g) => g.getInviteCode(groupId)),
      revokeInvite: (groupId) => groups((g) => g.revokeInvite(groupId)),
      joinByInvite: (code) => groups((g) => g.joinByInvite(code)),
      leave: (groupId) => groups((g) => g.leave(groupId)),
      isAdmin: (groupId, memberId) => groups((g) => g.isAdmin(groupId, memberId)),
    },
    chats: {
      list: () => on((me) => listChats(network, me)),
      get: (chatId) => on((me) => getChat(network, me, chatId)),
      fetchMessages: (chatId, options) => on((me) => fetchMessages(network, me, chatId, options)),
      pin: (chatId, pin) => on((me) => pinChat(network, me, chatId, pin)),
    },
    contacts: {
      list: () => on((me) => listContacts(network, me)),
      get: (id) => on((me) => getContact(network, me, id)),
      getNumberId: (digits) => on(() => numberId(network, digits)),
      getProfilePictureUrl: (id) => on((me) => profilePictureUrl(network, me, id)),
      setBlocked: (id, blocked) => on((me) => setBlocked(network, me, id, blocked)),
      resolve: (id) => on((me) => network.lookUp(me, id)),
    },
    calls: {
      reject: (callId) => on((me) => network.calls.reject(me, callId)),
    },
    messages: {
      getQuoted: (messageId) => on((me) => quotedMessage(network, me, messageId)),
    },
    actions: {
      react: (messageId, emoji) => on((me) => network.actions.react(me, messageId, emoji)),
      edit: (messageId, text) => on((me) => network.actions.edit(me, messageId, text)),
      delete: (messageId, forEveryone) =>
        on((me) =>
          forEveryone
            ? network.actions.revoke(me, messageId)
            : network.actions.deleteForMe(me, messageId),
        ),
    },
    presence: {
      markSeen: (chatId) => on((me) => network.actions.seen(me, chatId)),
      sendState: (chatId, state) => on((me) => network.actions.chatState(me, chatId, state)),
      setOnline: (online) => on((me) => network.actions.setOnline(me, online)),
    },
  };
}
