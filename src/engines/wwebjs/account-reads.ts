import type { CallEngine } from '../ports/calls.js';
import type { ChatEngine } from '../ports/chats.js';
import type { ContactEngine } from '../ports/contacts.js';
import * as chats from './chats.js';
import * as contacts from './contacts.js';
import type { EngineOperations } from './engine-operations.js';

export type AccountReads = ChatEngine & ContactEngine & CallEngine;

/**
 * Chats, contacts and calls of the linked account (chats.ts, contacts.ts), each on the ready
 * attempt's client: CLIENT_NOT_READY (a rejection) while whatsapp-web.js is not connected.
 */
export function accountReads(ops: EngineOperations): AccountReads {
  return {
    getChats: async () => {
      const { client, identity } = ops.readyAttempt();
      return chats.getChats(client, identity?.id);
    },
    getChat: async (chatId) => {
      const { client, identity } = ops.readyAttempt();
      return chats.getChat(client, chatId, identity?.id);
    },
    fetchMessages: async (chatId, options) => {
      const { client, identity } = ops.readyAttempt();
      return chats.fetchMessages(client, chatId, options, identity?.id);
    },
    pinChat: async (chatId, pin) => chats.pinChat(ops.readyAttempt().client, chatId, pin),
    getContacts: async () => contacts.getContacts(ops.readyAttempt().client),
    getContact: async (id) => contacts.getContact(ops.readyAttempt().client, id),
    getNumberId: async (digits) => contacts.getNumberId(ops.readyAttempt().client, digits),
    getProfilePictureUrl: async (id) =>
      contacts.getProfilePictureUrl(ops.readyAttempt().client, id),
    setBlocked: async (id, blocked) => contacts.setBlocked(ops.readyAttempt().client, id, blocked),
    rejectCall: async (callId) => ops.readyAttempt().calls.reject(callId),
  };
}
