import type { ClientCore } from './client-core.js';
import { prepareSend, type PreparedSend } from './send-contract.js';
import type { SendContactInput, SendLocationInput, SendPollInput } from './send-contract.js';
import type { SendResult } from './types.js';

/**
 * Messages: locations, contact cards and polls. Each is validated by its schema in
 * `send-contract.ts` and goes through the outbound queue like text and media (tracked, paced,
 * journaled and sent after a crash); `options.quotedMessageId` makes it a reply.
 */
export interface MessagesApi {
  /** A location pin: `{ to, location: { latitude, longitude, name?, address? } }`. */
  sendLocationMessage(input: SendLocationInput): Promise<SendResult>;
  /**
   * One or more contact cards: `{ to, contacts: [{ id: '<number>@c.us' } | { vcard }] }` (a
   * WhatsApp user by id, or a vCard with at least an FN line).
   */
  sendContactMessage(input: SendContactInput): Promise<SendResult>;
  /**
   * A poll: `{ to, poll: { question, options (2-12, distinct), allowMultipleAnswers? } }`; votes
   * arrive as `poll.vote` events.
   */
  sendPollMessage(input: SendPollInput): Promise<SendResult>;
}

export function messagesApi(core: ClientCore): MessagesApi {
  const send = async (prepared: PreparedSend, key?: string): Promise<SendResult> => {
    const queued = await core.accept(prepared.chatId, prepared.content, {
      priority: 'normal',
      ...(key ? { idempotencyKey: key } : {}),
    });
    return queued.result;
  };
  return {
    // async: a refused input is a rejection, like every other send method
    sendLocationMessage: async (input) =>
      send(prepareSend('location', input), input?.idempotencyKey),
    sendContactMessage: async (input) => send(prepareSend('contact', input), input?.idempotencyKey),
    sendPollMessage: async (input) => send(prepareSend('poll', input), input?.idempotencyKey),
  };
}
