import type { Logger } from 'pino';
import type { EngineContent, MediaFile, MessageData } from '../types.js';
import { quotedOf } from './messages.js';
import { WakitError, isWakitError } from '../../errors/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Attempt } from './attempt.js';
import type { LRUCache } from 'lru-cache';
import {
  downloadMessageMedia,
  findMessage,
  forwardMessage,
  pairingDigits,
  resolveTarget,
  sendContent,
} from './operations.js';
import type { MessageLike, WwebjsBindings } from './types.js';

export interface EngineOperationsOptions {
  /** The engine's current attempt, if any. */
  current: () => Attempt | null;
  /** Recent messages by serialized id (forward / downloadMedia look here first). */
  messages: LRUCache<string, MessageLike>;
  bindings: () => Promise<WwebjsBindings>;
  clock: Clock;
  log: Logger;
  forwardIdTimeoutMs: number;
}

/** The engine's operations on messages (sending, forwarding, media, quotes) and pairing. */
export class EngineOperations {
  constructor(private readonly o: EngineOperationsOptions) {}

  /** The current attempt once READY; CLIENT_NOT_READY otherwise. */
  readyAttempt(): Attempt {
    const attempt = this.o.current();
    if (!attempt || attempt.retired || !attempt.ready) {
      throw new WakitError('CLIENT_NOT_READY', 'whatsapp-web.js is not connected');
    }
    return attempt;
  }

  async send(chatId: string, content: EngineContent): Promise<{ id: string }> {
    const attempt = this.readyAttempt();
    const sent = await sendContent(
      attempt.client,
      await this.o.bindings(),
      chatId,
      content,
      attempt.identity?.id,
    );
    this.o.messages.set(sent.id._serialized, sent);
    return { id: sent.id._serialized };
  }

  async forward(messageId: string, chatId: string): Promise<{ id: string }> {
    const attempt = this.readyAttempt();
    const { client } = attempt;
    const message = await findMessage(client, this.o.messages.get(messageId), messageId);
    const target = await resolveTarget(client, chatId, attempt.identity?.id);
    const created = attempt.waitForCreated(target, this.o.forwardIdTimeoutMs, this.o.clock);
    const id = await forwardMessage(client, message, target, created);
    if (!id) this.o.log.warn({ messageId, chatId }, 'forwarded, but its id was not seen');
    return { id };
  }

  async downloadMedia(messageId: string): Promise<MediaFile> {
    const { client } = this.readyAttempt();
    let message: MessageLike;
    try {
      message = await findMessage(client, this.o.messages.get(messageId), messageId);
    } catch (error) {
      if (!isWakitError(error, 'MESSAGE_NOT_FOUND')) throw error;
      throw new WakitError('MEDIA_NOT_FOUND', `Message ${messageId} not found`, {
        details: { messageId },
        cause: error,
      });
    }
    return downloadMessageMedia(message);
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    const digits = pairingDigits(phoneNumber);
    const attempt = this.o.current();
    if (!attempt || attempt.retired || !attempt.client.pupPage || attempt.authenticated) {
      throw new WakitError(
        'INVALID_STATE',
        'A pairing code can be requested only while the client waits to be linked',
      );
    }
    try {
      return await attempt.client.requestPairingCode(digits, true);
    } catch (error) {
      throw new WakitError('ENGINE_ERROR', 'whatsapp-web.js could not get a pairing code', {
        cause: error,
      });
    }
  }

  async getQuotedMessage(messageId: string): Promise<MessageData | null> {
    const attempt = this.readyAttempt();
    const message = await findMessage(attempt.client, this.o.messages.get(messageId), messageId);
    const quoted = await quotedOf(message, attempt.identity?.id);
    if (quoted) this.o.messages.set(quoted.data.id, quoted.message);
    return quoted?.data ?? null;
  }
}
