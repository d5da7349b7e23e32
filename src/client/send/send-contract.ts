/**
 * The send contract: one zod schema per send kind, in one place (built from the fields of
 * send-fields.ts). The SDK's input types are derived from it (`z.input`), HTTP request bodies are
 * built from it (`sendRequestSchema`, with base64 `data` instead of `buffer`/`path`), and
 * everything that sends (SDK methods, `ctx.send`, REST) turns its input into a `PreparedSend`
 * exactly once. Only this module makes `PreparedSend`s, so `BotClient.enqueue` can trust one
 * without checking it again.
 */
import { z } from 'zod';
import { WakitError, issueError, zodIssues } from '../../errors/index.js';
import { MEDIA_KINDS, type MediaKind } from '../../engines/types.js';
import { MESSAGE_KINDS, type MessageKind } from '../../engines/ports/messages.js';
import { chatOfMessageId } from '../../engines/ports/actions.js';
import {
  FORWARD_TARGET_KINDS,
  PERSON_KINDS,
  checkContentFor,
  normalizeChatId,
} from '../chat-id.js';
import { kindContent, typedKindFields, type KindFields } from './message-kinds.js';
import type { ActionContent, OutgoingContent } from '../types.js';
import {
  CONTACT_FIELDS,
  LOCATION_FIELDS,
  MEDIA_FIELDS,
  POLL_FIELDS,
  httpSources,
  locationSchema,
  pollSchema,
  replyOptionsSchema,
  sdkMedia,
  sdkSources,
  text,
  textOptionsSchema,
  typedMedia,
} from './send-fields.js';

export {
  contactCardSchema,
  locationSchema,
  pollSchema,
  replyOptionsSchema,
  textOptionsSchema,
} from './send-fields.js';

/** Every kind of send: text, the media kinds, location, contact and poll. */
export const SEND_KINDS = ['text', ...MEDIA_KINDS, ...MESSAGE_KINDS] as const;
export type SendKind = (typeof SEND_KINDS)[number];

/** The SDK's `send<Kind>Message` inputs, one schema per kind. */
const idempotencyKey = z.string().min(1).max(255).optional();

const replyOptions = replyOptionsSchema.optional();

export const sendSchemas = {
  text: z
    .object({ to: z.string(), text, options: textOptionsSchema.optional(), idempotencyKey })
    .strict(),
  image: z
    .object({
      to: z.string(),
      image: sdkMedia(MEDIA_FIELDS.image),
      options: replyOptions,
      idempotencyKey,
    })
    .strict(),
  video: z
    .object({
      to: z.string(),
      video: sdkMedia(MEDIA_FIELDS.video),
      options: replyOptions,
      idempotencyKey,
    })
    .strict(),
  audio: z
    .object({
      to: z.string(),
      audio: sdkMedia(MEDIA_FIELDS.audio),
      options: replyOptions,
      idempotencyKey,
    })
    .strict(),
  document: z
    .object({
      to: z.string(),
      document: sdkMedia(MEDIA_FIELDS.document),
      options: replyOptions,
      idempotencyKey,
    })
    .strict(),
  sticker: z
    .object({
      to: z.string(),
      sticker: sdkMedia(MEDIA_FIELDS.sticker),
      options: replyOptions,
      idempotencyKey,
    })
    .strict(),
  location: z
    .object({ to: z.string(), location: locationSchema, options: replyOptions, idempotencyKey })
    .strict(),
  contact: z
    .object({ to: z.string(), ...CONTACT_FIELDS, options: replyOptions, idempotencyKey })
    .strict(),
  poll: z
    .object({ to: z.string(), poll: pollSchema, options: replyOptions, idempotencyKey })
    .strict(),
};

export type SendTextInput = z.input<typeof sendSchemas.text>;
export type SendImageInput = z.input<typeof sendSchemas.image>;
export type SendVideoInput = z.input<typeof sendSchemas.video>;
export type SendAudioInput = z.input<typeof sendSchemas.audio>;
export type SendDocumentInput = z.input<typeof sendSchemas.document>;
export type SendStickerInput = z.input<typeof sendSchemas.sticker>;
export type SendLocationInput = z.input<typeof sendSchemas.location>;
export type SendContactInput = z.input<typeof sendSchemas.contact>;
export type SendPollInput = z.input<typeof sendSchemas.poll>;
export type TextOptionsInput = z.input<typeof textOptionsSchema>;
export type ReplyOptionsInput = z.input<typeof replyOptionsSchema>;

/** Content with its `type` (`ctx.send`, HTTP): a string is text, an object media of one kind. */
function contentSchema<S extends z.ZodRawShape>(sources: S) {
  return z.union([
    text,
    z.discriminatedUnion('type', [
      typedMedia('image', MEDIA_FIELDS.image, sources),
      typedMedia('video', MEDIA_FIELDS.video, sources),
      typedMedia('audio', MEDIA_FIELDS.audio, sources),
      typedMedia('document', MEDIA_FIELDS.document, sources),
      typedMedia('sticker', MEDIA_FIELDS.sticker, sources),
      z.object({ type: z.literal('location'), ...LOCATION_FIELDS }).strict(),
      z.object({ type: z.literal('contact'), ...CONTACT_FIELDS }).strict(),
      z.object({ type: z.literal('poll'), ...POLL_FIELDS }).strict(),
    ]),
  ]);
}
const pluginContent = contentSchema(sdkSources);
const httpContent = contentSchema(httpSources);

/** What `ctx.send` takes: a string is text, an object media of one kind, a location, contacts or a poll. */
export type SendContent = z.input<typeof pluginContent>;
export type MediaContent = Exclude<SendContent, string>;

/** A validated, normalised send: only this module makes them (`BotClient.enqueue` takes one). */
export interface PreparedSend {
  readonly chatId: string;
  readonly content: OutgoingContent;
}

/**
 * The one kind of object that is a PreparedSend, frozen. Its private field is the proof that this
 * module made it (`#sealed in value`); a WeakSet of every send made cost more per send and work
 * for every garbage collection (measured in docs/performance.md).
 */
class SealedSend implements PreparedSend {
  readonly #sealed = true;

  constructor(
    readonly chatId: string,
    readonly content: OutgoingContent,
  ) {
    Object.freeze(this);
  }

  static is(value: object): boolean {
    return #sealed in value;
  }
}

export function isPreparedSend(value: unknown): value is PreparedSend {
  return typeof value === 'object' && value !== null && SealedSend.is(value);
}

type ParsedMedia = {
  url?: string;
  path?: string;
  buffer?: Uint8Array;
  data?: string;
  mimetype?: string;
  caption?: string;
  filename?: string;
};

interface HttpBody {
  chatId: string;
  content: z.output<typeof httpContent>;
  options?: TextOptionsInput;
}

const isKind = (kind: string): kind is MessageKind =>
  (MESSAGE_KINDS as readonly string[]).includes(kind);

function make(chatId: string, content: OutgoingContent): PreparedSend {
  checkContentFor(chatId, content);
  return new SealedSend(chatId, content);
}

/**
 * A forward of an existing message (a WhatsApp message id) to a person or a group: what
 * `message.forward(chatId)` and `POST /api/v1/messages/{id}/forward` queue. It is a new message
 * of the target chat (tracked, acknowledged); an unknown message fails it with MESSAGE_NOT_FOUND.
 */
export function prepareForward(messageId: string, chatId: unknown): PreparedSend {
  if (typeof messageId !== 'string' || messageId.length > 256 || !chatOfMessageId(messageId)) {
    throw new WakitError('VALIDATION_FAILED', 'Invalid message id to forward', {
      issues: [
        {
          path: 'messageId',
          message:
            'must be a WhatsApp message id (true_<chat>_<id> or false_<chat>_<id>[_<author>])',
        },
      ],
    });
  }
  const to = normalizeChatId(chatId, 'chatId', { allow: FORWARD_TARGET_KINDS });
  return make(to, { kind: 'forward', messageId });
}

/** @internal A PreparedSend of an action, validated by action-contract.ts. */
export function preparedAction(chatId: string, content: ActionContent): PreparedSend {
  return make(chatId, content);
}

function textSend(chatId: string, body: string, options: TextOptionsInput = {}): PreparedSend {
  const normalised = { ...options };
  if (normalised.mentions) {
    normalised.mentions = normalised.mentions.map((m, i) =>
      normalizeChatId(m, `options.mentions.${i}`, { allow: PERSON_KINDS }),
    );
  }
  return make(chatId, { kind: 'text', text: body, options: normalised });
}

function mediaSend(
  chatId: string,
  kind: MediaKind,
  media: ParsedMedia,
  quotedMessageId?: string,
): PreparedSend {
  const declared = media.mimetype !== undefined ? { mimetype: media.mimetype } : {};
  const source = media.url
    ? { url: media.url, ...declared }
    : media.path
      ? { path: media.path, ...declared }
      : {
          buffer: media.buffer ? Buffer.from(media.buffer) : Buffer.from(media.data!, 'base64'),
          mimetype: media.mimetype!,
        };
  return make(chatId, {
    kind,
    source,
    ...(media.caption !== undefined ? { caption: media.caption } : {}),
    ...(media.filename !== undefined ? { filename: media.filename } : {}),
    ...(quotedMessageId !== undefined ? { quotedMessageId } : {}),
  });
}

/** Typed non-text content (`ctx.send`, HTTP): media of one kind, a location, contacts or a poll. */
function typedSend(
  chatId: string,
  content: Exclude<z.output<typeof pluginContent>, string>,
  quotedMessageId?: string,
): PreparedSend {
  if (isKind(content.type)) {
    const fields = typedKindFields(content as { type: MessageKind } & Record<string, unknown>);
    return make(chatId, kindContent(content.type, fields, quotedMessageId));
  }
  return mediaSend(chatId, content.type, content as ParsedMedia, quotedMessageId);
}

function check<T>(schema: z.ZodType<T>, value: unknown, title: string, prefix: string[] = []): T {
  const result = schema.safeParse(value);
  if (!result.success)
    throw issueError('VALIDATION_FAILED', title, zodIssues(result.error, prefix));
  return result.data;
}

function requireObject(input: unknown, what: string): Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new WakitError('VALIDATION_FAILED', `${what} takes one object argument`);
  }
  return input as Record<string, unknown>;
}

/** Validates the input of `send<Kind>Message` (`{ to, text }` or `{ to, <kind>: media }`). */
export function prepareSend(kind: SendKind, input: unknown): PreparedSend {
  const method = `send${kind[0].toUpperCase()}${kind.slice(1)}Message`;
  const chatId = normalizeChatId(requireObject(input, method).to, 'to');
  if (kind === 'text') {
    const parsed = check(sendSchemas.text, input, 'Invalid text message');
    return textSend(chatId, parsed.text, parsed.options);
  }
  const parsed = check(sendSchemas[kind] as z.ZodType, input, `Invalid ${kind} message`) as {
    options?: { quotedMessageId?: string };
  } & Record<string, unknown>;
  const quoted = parsed.options?.quotedMessageId;
  if (isKind(kind)) return make(chatId, kindContent(kind, parsed as KindFields, quoted));
  return mediaSend(chatId, kind, parsed[kind] as ParsedMedia, quoted);
}

/**
 * Validates `ctx.send` content: a string is text (with text `options`), an object media, a
 * location, contacts or a poll (whose `options` may only name the message it replies to).
 */
export function prepareContent(
  chatId: string,
  content: unknown,
  options?: TextOptionsInput,
): PreparedSend {
  const to = normalizeChatId(chatId, 'chatId');
  const parsed = check(pluginContent, content, 'Invalid content', ['content']);
  if (typeof parsed === 'string') {
    return textSend(
      to,
      parsed,
      options && check(textOptionsSchema, options, 'Invalid options', ['options']),
    );
  }
  const reply = options && check(replyOptionsSchema, options, 'Invalid options', ['options']);
  return typedSend(to, parsed, reply?.quotedMessageId);
}

/**
 * The JSON body of an HTTP send (`{ chatId, content, options? }` plus `extra` fields): media by
 * `url` or base64 `data`. Its output carries the `PreparedSend`, so a request is validated once.
 */
export function sendRequestSchema<E extends z.ZodRawShape>(extra: E) {
  return z
    .object({
      chatId: z.string().min(1).max(128),
      content: httpContent,
      options: textOptionsSchema.optional(),
      ...extra,
    })
    .strict()
    .superRefine((body, ctx) => {
      const { options, content } = body as HttpBody;
      if (options === undefined || typeof content === 'string') return;
      for (const key of Object.keys(options)) {
        if (key === 'quotedMessageId') continue;
        ctx.addIssue({ code: 'custom', path: ['options', key], message: 'only for text content' });
      }
    })
    .transform((body) => {
      const { chatId, content, options, ...rest } = body as HttpBody;
      const to = normalizeChatId(chatId, 'chatId');
      const send =
        typeof content === 'string'
          ? textSend(to, content, options)
          : typedSend(to, content, options?.quotedMessageId);
      return { ...(rest as { [K in keyof E]: z.output<E[K]> }), send };
    });
}
