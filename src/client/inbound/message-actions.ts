import { WakitError } from '../../errors/index.js';
import type { ActionsApi } from '../areas.js';
import { REPLY_KINDS, parseChatId } from '../chat-id.js';
import type { ClientCore } from '../core/client-core.js';
import { Message, type MessageActions } from './message.js';
import { prepareContent, prepareForward } from '../send/send-contract.js';
import type { ClientSends as SendsApi } from '../client-sends.js';
import type { MediaData } from '../types.js';

/**
 * What a received or created `Message` of this client can do (`reply`, `forward`, `downloadMedia`,
 * `getQuotedMessage`, `react`, `edit`, `delete`): each through the client's own sends and engine.
 */
export function messageActions(
  core: ClientCore,
  api: Pick<SendsApi, 'enqueue'> & { messages: ActionsApi },
): MessageActions {
  const actions: MessageActions = {
    client: core.name,
    reply: async (message, content) => {
      parseChatId(message.chatId, 'reply', { allow: REPLY_KINDS });
      const send = prepareContent(message.chatId, content, { quotedMessageId: message.id });
      return (await api.enqueue(send, { priority: 'reply' })).result;
    },
    forward: async (message, chatId) =>
      (await api.enqueue(prepareForward(message.id, chatId), { priority: 'normal' })).result,
    download: async (message): Promise<MediaData> => {
      if (!message.hasMedia) {
        throw new WakitError('MEDIA_NOT_FOUND', `Message ${message.id} has no media`);
      }
      const file = await core.requireEngine().downloadMedia(message.id);
      return {
        data: file.data.toString('base64'),
        mimetype: file.mimetype,
        filename: file.filename ?? message.media?.filename ?? `${message.id}`,
      };
    },
    quoted: async (message) => {
      const data = await core.requireEngine().ops.messages.getQuoted(message.id);
      return data ? new Message(data, actions) : null;
    },
    react: (message, emoji) => api.messages.react(message.id, emoji),
    edit: (message, text) => api.messages.edit(message.id, text),
    delete: (message, forEveryone) => api.messages.delete(message.id, { forEveryone }),
  };
  return actions;
}
