import { WakitError } from '../../errors/index.js';
import type { Engine } from '../engine.js';
import type { ActionsEngine } from '../ports/actions.js';
import type { CallEngine } from '../ports/calls.js';
import type { ChatEngine } from '../ports/chats.js';
import type { ContactEngine } from '../ports/contacts.js';
import type { GroupEngine } from '../ports/groups.js';
import type { PresenceEngine } from '../ports/presence.js';
import { fetchMessages, getChat, listChats, pinChat } from './chats.js';
import { getContact, listContacts, numberId, profilePictureUrl, setBlocked } from './contacts.js';
import { onAccount, type SimDevice } from './device.js';

export type AccountPorts = GroupEngine &
  ChatEngine &
  ContactEngine &
  CallEngine &
  ActionsEngine &
  PresenceEngine &
  Pick<Engine, 'isGroupAdmin' | 'resolveContact'>;

/**
 * What one simulator engine does on its linked account through the network's models: groups
 * (groups.ts), chats and contacts (chats.ts, contacts.ts), calls, actions and presence
 * (actions.ts), contact look-ups. Each needs the account linked and ready.
 */
export function accountPorts(device: SimDevice): AccountPorts {
  const { network } = device;
  /** On the account's groups; CLIENT_NOT_READY is a rejection like every other failure. */
  const groups = async <T>(fn: (model: GroupEngine) => Promise<T>): Promise<T> =>
    fn(device.ready().groups);
  const act = (fn: (model: typeof network.actions, me: ReturnType<SimDevice['ready']>) => void) =>
    onAccount(device, (me) => fn(network.actions, me));
  return {
    createGroup: (subject, participants) => groups((g) => g.createGroup(subject, participants)),
    getGroup: (groupId) => groups((g) => g.getGroup(groupId)),
    addParticipants: (groupId, ids) => groups((g) => g.addParticipants(groupId, ids)),
    removeParticipants: (groupId, ids) => groups((g) => g.removeParticipants(groupId, ids)),
    promoteParticipants: (groupId, ids) => groups((g) => g.promoteParticipants(groupId, ids)),
    demoteParticipants: (groupId, ids) => groups((g) => g.demoteParticipants(groupId, ids)),
    setGroupSubject: (groupId, subject) => groups((g) => g.setGroupSubject(groupId, subject)),
    setGroupDescription: (groupId, text) => groups((g) => g.setGroupDescription(groupId, text)),
    setGroupSettings: (groupId, settings) => groups((g) => g.setGroupSettings(groupId, settings)),
    getInviteCode: (groupId) => groups((g) => g.getInviteCode(groupId)),
    revokeInvite: (groupId) => groups((g) => g.revokeInvite(groupId)),
    joinByInvite: (code) => groups((g) => g.joinByInvite(code)),
    leaveGroup: (groupId) => groups((g) => g.leaveGroup(groupId)),
    isGroupAdmin: (groupId, memberId) => {
      const group = network.findGroup(groupId);
      if (!group)
        return Promise.reject(new WakitError('CHAT_NOT_FOUND', `group ${groupId} does not exist`));
      const member = network.person(memberId);
      return Promise.resolve(member !== undefined && group.admins.has(member.id));
    },

    getChats: () => onAccount(device, (account) => listChats(network, account)),
    getChat: (chatId) => onAccount(device, (account) => getChat(network, account, chatId)),
    fetchMessages: (chatId, options) =>
      onAccount(device, (account) => fetchMessages(network, account, chatId, options)),
    pinChat: (chatId, pin) =>
      onAccount(device, (account) => pinChat(network, account, chatId, pin)),
    getContacts: () => onAccount(device, (account) => listContacts(network, account)),
    getContact: (id) => onAccount(device, (account) => getContact(network, account, id)),
    getNumberId: (digits) => onAccount(device, () => numberId(network, digits)),
    getProfilePictureUrl: (id) =>
      onAccount(device, (account) => profilePictureUrl(network, account, id)),
    setBlocked: (id, blocked) =>
      onAccount(device, (account) => setBlocked(network, account, id, blocked)),
    resolveContact: (id) => onAccount(device, (account) => network.lookUp(account, id)),
    rejectCall: (callId) => onAccount(device, (account) => network.calls.reject(account, callId)),

    react: (messageId, emoji) => act((model, me) => model.react(me, messageId, emoji)),
    editMessage: (messageId, text) => act((model, me) => model.edit(me, messageId, text)),
    deleteMessage: (messageId, forEveryone) =>
      act((model, me) =>
        forEveryone ? model.revoke(me, messageId) : model.deleteForMe(me, messageId),
      ),
    markChatSeen: (chatId) => act((model, me) => model.seen(me, chatId)),
    sendChatState: (chatId, state) => act((model, me) => model.chatState(me, chatId, state)),
    setOnline: (online) => act((model, me) => model.setOnline(me, online)),
  };
}
