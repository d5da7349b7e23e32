import type { MessageSender } from '../client/types.js';

/**
 * One id per person, whether WhatsApp addresses them by `@lid` or by phone: the LID when it is
 * known (a LID is a sendable chat id and never changes), else the `@c.us` id.
 */
export function personId(sender: Pick<MessageSender, 'id' | 'lid' | 'phone'>): string {
  return sender.lid ?? sender.phone ?? sender.id;
}

/**
 * The chat a message belongs to for conversations and chat state: a group as it is, a private chat
 * as the person's one id (so `@lid` and `@c.us` messages of one person share their place).
 */
export function chatOf(message: {
  chatId: string;
  isGroup: boolean;
  sender: Pick<MessageSender, 'id' | 'lid' | 'phone'>;
}): { chatId: string; member: string } {
  if (message.isGroup) return { chatId: message.chatId, member: personId(message.sender) };
  const person =
    message.chatId.endsWith('@c.us') || message.chatId.endsWith('@lid')
      ? personId(message.sender)
      : message.chatId;
  return { chatId: person, member: '' };
}

/**
 * A chat given by an operator (SDK, REST) as conversations and chat state key it: a person by
 * their one id, as their messages are keyed (`chatOf`), whether named by phone or by LID (the
 * client looks the person up); a group as it is.
 */
export async function personChat(
  client: { resolveContact(id: string): Promise<{ lid?: string; phone?: string }> },
  chatId: string,
): Promise<string> {
  if (!chatId.endsWith('@c.us') && !chatId.endsWith('@lid')) return chatId;
  const known = await client.resolveContact(chatId).catch(() => {
    // not reported: a person the client cannot look up (not ready, unknown) keeps the id given
    return undefined;
  });
  const sender = {
    id: chatId,
    ...(known?.lid ? { lid: known.lid } : {}),
    ...(known?.phone ? { phone: known.phone } : {}),
  };
  return chatOf({ chatId, isGroup: false, sender }).chatId;
}
