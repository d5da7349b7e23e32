import { WakitError } from '../errors/index.js';
import type { SendPriority } from '../queue/index.js';
import type { ClientCore } from './client-core.js';
import { isPreparedSend, prepareSend, type PreparedSend } from './send-contract.js';
import type {
  SendAudioInput,
  SendDocumentInput,
  SendImageInput,
  SendStickerInput,
  SendTextInput,
  SendVideoInput,
} from './send-contract.js';
import type { QueuedSend } from './send-intake.js';
import type { SendResult } from './types.js';

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
}

/**
 * Sending messages: the part of the SDK client that takes the six message kinds of the spec
 * (validated by the send contract, send-contract.ts) and `enqueue` for any prepared send. Each
 * goes through the outbox and the outbound queue (docs/queue.md).
 */
export interface SendsApi {
  /** Sends a text; resolves once sent, with the WhatsApp message id and the tracking id. */
  sendTextMessage(input: SendTextInput): Promise<SendResult>;
  /** Sends an image (from `url`, `path`, `buffer` or base64 `data`), with an optional caption. */
  sendImageMessage(input: SendImageInput): Promise<SendResult>;
  /** Sends a video (from `url`, `path`, `buffer` or base64 `data`), with an optional caption. */
  sendVideoMessage(input: SendVideoInput): Promise<SendResult>;
  /** Sends an audio file. */
  sendAudioMessage(input: SendAudioInput): Promise<SendResult>;
  /** Sends a document (any file) under its `filename`, with an optional caption. */
  sendDocumentMessage(input: SendDocumentInput): Promise<SendResult>;
  /** Sends a sticker (a WebP image). */
  sendStickerMessage(input: SendStickerInput): Promise<SendResult>;
  /**
   * Enqueues a prepared send (from `prepareSend`, `prepareContent` or `sendRequestSchema`) without
   * waiting for it to go out: it resolves once the send is journaled in the outbox, with the
   * tracking id and chat (REST's 202); `result` settles when the message is sent. Rejects with
   * CLIENT_NOT_READY, QUEUE_FULL, SHUTTING_DOWN, STORAGE_UNAVAILABLE / STORAGE_FULL or an
   * idempotency error; a refused send is never sent.
   */
  enqueue(send: PreparedSend, options?: EnqueueOptions): Promise<QueuedSend>;
}

export function sendsApi(core: ClientCore): SendsApi {
  const enqueue = async (send: PreparedSend, options: EnqueueOptions = {}): Promise<QueuedSend> => {
    if (!isPreparedSend(send)) {
      throw new WakitError(
        'VALIDATION_FAILED',
        'enqueue() takes a send made by prepareSend(), prepareContent() or sendRequestSchema()',
      );
    }
    return core.accept(send.chatId, send.content, {
      priority: options.priority ?? 'normal',
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      ...(options.idempotencyScope ? { idempotencyScope: options.idempotencyScope } : {}),
      ...(options.bypassBudget ? { bypassBudget: true } : {}),
    });
  };
  /** Validation errors become rejections, like every other failure of the call. */
  const send = async (
    prepare: () => PreparedSend,
    input: { idempotencyKey?: string },
  ): Promise<SendResult> => {
    const prepared = prepare();
    const options = input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {};
    return (await enqueue(prepared, options)).result;
  };
  return {
    sendTextMessage: (input) => send(() => prepareSend('text', input), input),
    sendImageMessage: (input) => send(() => prepareSend('image', input), input),
    sendVideoMessage: (input) => send(() => prepareSend('video', input), input),
    sendAudioMessage: (input) => send(() => prepareSend('audio', input), input),
    sendDocumentMessage: (input) => send(() => prepareSend('document', input), input),
    sendStickerMessage: (input) => send(() => prepareSend('sticker', input), input),
    enqueue,
  };
}
