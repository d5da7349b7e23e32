/**
 * Presence and read state on whatsapp-web.js 1.34: `Client#sendSeen` (Client.js:1339, false when
 * WhatsApp Web has no such chat), `Chat#sendStateTyping` / `sendStateRecording` / `clearState`
 * (structures/Chat.js:252-277) and `Client#sendPresenceAvailable` / `Unavailable` (Client.js:1984).
 */
import { WakitError } from '../../errors/index.js';
import type { ChatState, PresenceOps } from '../ports/presence.js';
import type { Attempt } from './attempt.js';
import { mapSendError } from './map-errors.js';
import type { ChatLike, ClientLike } from './types.js';

export interface PresenceClientLike extends ClientLike {
  sendSeen(chatId: string): Promise<boolean>;
  sendPresenceAvailable(): Promise<unknown>;
  sendPresenceUnavailable(): Promise<unknown>;
}

export interface PresenceChatLike extends ChatLike {
  sendStateTyping(): Promise<unknown>;
  sendStateRecording(): Promise<unknown>;
  clearState(): Promise<unknown>;
}

export class WwebjsPresence implements PresenceOps {
  constructor(private readonly current: () => Attempt | null) {}

  private client(): PresenceClientLike {
    const attempt = this.current();
    if (!attempt || attempt.retired || !attempt.ready) {
      throw new WakitError('CLIENT_NOT_READY', 'whatsapp-web.js is not connected');
    }
    return attempt.client as PresenceClientLike;
  }

  async markSeen(chatId: string): Promise<void> {
    const client = this.client();
    let seen: boolean;
    try {
      seen = await client.sendSeen(chatId);
    } catch (error) {
      throw mapSendError(error, chatId);
    }
    if (seen === false) throw notFound(chatId);
  }

  async sendState(chatId: string, state: ChatState): Promise<void> {
    const client = this.client();
    try {
      const chat = (await client.getChatById(chatId)) as PresenceChatLike | undefined;
      if (!chat) throw notFound(chatId);
      if (state === 'typing') await chat.sendStateTyping();
      else if (state === 'recording') await chat.sendStateRecording();
      else await chat.clearState();
    } catch (error) {
      throw mapSendError(error, chatId);
    }
  }

  async setOnline(online: boolean): Promise<void> {
    const client = this.client();
    try {
      if (online) await client.sendPresenceAvailable();
      else await client.sendPresenceUnavailable();
    } catch (error) {
      throw mapSendError(error, 'presence');
    }
  }
}

const notFound = (chatId: string): WakitError =>
  new WakitError('CHAT_NOT_FOUND', `Chat ${chatId} does not exist on WhatsApp`, {
    details: { chatId },
  });
