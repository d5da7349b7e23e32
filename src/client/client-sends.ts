import { WakitError } from '../errors/index.js';
import { assertEffectAllowed } from '../kernel/effect-guard.js';
import type { SendPriority } from '../queue/index.js';
import {
  isPreparedSend,
  prepareSend,
  type PreparedSend,
  type SendKind,
} from './send/send-contract.js';
import type {
  SendAudioInput,
  SendContactInput,
  SendDocumentInput,
  SendImageInput,
  SendLocationInput,
  SendPollInput,
  SendStickerInput,
  SendTextInput,
  SendVideoInput,
} from './send/send-contract.js';
import type { AcceptOptions, QueuedSend } from './send/send-intake.js';
import type { OutgoingContent, SendResult } from './types.js';

export interface EnqueueOptions {
  /** Queue priority; default `normal` (`reply` goes first, `bulk` last). */
  priority?: SendPriority;
  /**
   * Makes retries safe: the same key with the same send returns the first acceptance (same
   * tracking id) for as long as the outbox keeps it; with a different send, IDEMPOTENCY_KEY_REUSED.
   */
  idempotencyKey?: string;
  /** Namespace of the key (REST uses one per token); keys are always per client. */
  idempotencyScope?: string;
  /**
   * An operator's override: goes out whatever the send governor's budgets say (logged as a
   * warning; docs/safety.md). Not kept in the outbox: after a restart the send is governed.
   */
  bypassBudget?: boolean;
  /**
   * Not before this time (epoch ms, a `Date` or an RFC 3339 date-time): accepted now, journaled
   * `scheduled`, sent at its time (docs/scheduling.md). At or before now (within
   * `queue.schedule.pastToleranceMs`) it goes at once; else INVALID_SEND_AT.
   */
  sendAt?: number | Date | string;
  /**
   * Show "typing…" ("recording…" for audio) before the message goes: `true` for a time that fits
   * the text (30 ms a character, 0.5–4 s; 2 s for media), or that many ms (at most 20 s).
   */
  typing?: boolean | number;
}

/**
 * Sending messages, the spec's flat methods of the SDK client (`BotClient` extends this class):
 * the nine message kinds, each validated by the send contract (send-contract.ts), and `enqueue`
 * for any prepared send. Every send goes through the outbox and the outbound queue (tracked,
 * paced, journaled and sent after a crash: docs/queue.md); `options.quotedMessageId` makes it a
 * reply. A refused input is a rejection, like every other failure of the call.
 */
export abstract class ClientSends {
  /** Journals and queues a send (the client's placement); refuses it unless READY or holding. */
  protected abstract acceptSend(
    chatId: string,
    content: OutgoingContent,
    options: AcceptOptions,
  ): Promise<QueuedSend>;

  /** Sends a text; resolves once sent, with the WhatsApp message id and the tracking id. */
  sendTextMessage(input: SendTextInput): Promise<SendResult> {
    return this.#send('text', input);
  }

  /** Sends an image (from `url`, `path`, `buffer` or base64 `data`), with an optional caption. */
  sendImageMessage(input: SendImageInput): Promise<SendResult> {
    return this.#send('image', input);
  }

  /** Sends a video (from `url`, `path`, `buffer` or base64 `data`), with an optional caption. */
  sendVideoMessage(input: SendVideoInput): Promise<SendResult> {
    return this.#send('video', input);
  }

  /** Sends an audio file. */
  sendAudioMessage(input: SendAudioInput): Promise<SendResult> {
    return this.#send('audio', input);
  }

  /** Sends a document (any file) under its `filename`, with an optional caption. */
  sendDocumentMessage(input: SendDocumentInput): Promise<SendResult> {
    return this.#send('document', input);
  }

  /** Sends a sticker (a WebP image). */
  sendStickerMessage(input: SendStickerInput): Promise<SendResult> {
    return this.#send('sticker', input);
  }

  /** A location pin: `{ to, location: { latitude, longitude, name?, address? } }`. */
  sendLocationMessage(input: SendLocationInput): Promise<SendResult> {
    return this.#send('location', input);
  }

  /**
   * One or more contact cards: `{ to, contacts: [{ id: '<number>@c.us' } | { vcard }] }` (a
   * WhatsApp user by id, or a vCard with at least an FN line).
   */
  sendContactMessage(input: SendContactInput): Promise<SendResult> {
    return this.#send('contact', input);
  }

  /**
   * A poll: `{ to, poll: { question, options (2-12, distinct), allowMultipleAnswers? } }`; votes
   * arrive as `poll.vote` events.
   */
  sendPollMessage(input: SendPollInput): Promise<SendResult> {
    return this.#send('poll', input);
  }

  /**
   * Enqueues a prepared send (from `prepareSend`, `prepareContent` or `sendRequestSchema`) without
   * waiting for it to go out: it resolves once the send is journaled in the outbox, with the
   * tracking id and chat (REST's 202); `result` settles when the message is sent. Rejects with
   * CLIENT_NOT_READY, QUEUE_FULL, SHUTTING_DOWN, STORAGE_UNAVAILABLE / STORAGE_FULL or an
   * idempotency error; a refused send is never sent.
   */
  async enqueue(send: PreparedSend, options: EnqueueOptions = {}): Promise<QueuedSend> {
    assertEffectAllowed('send a message');
    if (!isPreparedSend(send)) {
      throw new WakitError(
        'VALIDATION_FAILED',
        'enqueue() takes a send made by prepareSend(), prepareContent() or sendRequestSchema()',
      );
    }
    return this.acceptSend(send.chatId, send.content, {
      priority: options.priority ?? 'normal',
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      ...(options.idempotencyScope ? { idempotencyScope: options.idempotencyScope } : {}),
      ...(options.bypassBudget ? { bypassBudget: true } : {}),
      ...(options.sendAt !== undefined ? { sendAt: options.sendAt } : {}),
      ...(options.typing !== undefined ? { typing: options.typing } : {}),
    });
  }

  /** Validates `input` as a `kind` send, queues it and resolves once it is sent. */
  async #send(kind: SendKind, input: { idempotencyKey?: string }): Promise<SendResult> {
    const prepared = prepareSend(kind, input);
    const key = input.idempotencyKey;
    return (await this.enqueue(prepared, key ? { idempotencyKey: key } : {})).result;
  }
}
