import { z } from 'zod';
import { WakitError } from '../errors/index.js';
import { zodIssues } from '../errors/index.js';
import { normalizeChatId } from './chat-id.js';
import type { MediaKind, OutgoingContent } from './types.js';

const httpUrl = z
  .string()
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL');
const caption = z.string().max(4096).optional();
const mimetype = z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type like image/png');

export const textOptionsSchema = z
  .object({
    linkPreview: z.boolean().optional(),
    sendSeen: z.boolean().optional(),
    mentions: z.array(z.string()).max(256).optional(),
    quotedMessageId: z.string().min(1).max(256).optional(),
  })
  .strict();

const textSchema = z
  .object({
    to: z.unknown(),
    text: z
      .string()
      .max(65_536)
      .refine((t) => t.trim().length > 0, 'must not be empty'),
    options: textOptionsSchema.optional(),
  })
  .strict();

const imageSource = z
  .object({
    url: httpUrl.optional(),
    path: z.string().min(1).optional(),
    buffer: z.instanceof(Uint8Array).optional(),
    mimetype: mimetype.optional(),
    caption,
  })
  .strict()
  .superRefine((image, ctx) => {
    const sources = (['url', 'path', 'buffer'] as const).filter((k) => image[k] !== undefined);
    if (sources.length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'exactly one of url, path or buffer is required' });
    }
    if (image.buffer !== undefined && image.mimetype === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['mimetype'],
        message: 'mimetype is required with buffer',
      });
    }
    if (image.buffer === undefined && image.mimetype !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['mimetype'],
        message: 'mimetype goes only with buffer',
      });
    }
  });

/**
 * Other kinds take a `url`, or a `buffer` with its `mimetype` (what REST's base64 `data` becomes).
 * Additive to the spec's table, which shows only `url` for these kinds.
 */
function urlOrBuffer<S extends z.ZodRawShape>(extra: S) {
  return z
    .object({
      url: httpUrl.optional(),
      buffer: z.instanceof(Uint8Array).optional(),
      mimetype: mimetype.optional(),
      ...extra,
    })
    .strict()
    .superRefine((value, ctx) => {
      const media = value as { url?: string; buffer?: Uint8Array; mimetype?: string };
      if ((media.url === undefined) === (media.buffer === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'exactly one of url or buffer is required' });
      }
      if ((media.buffer === undefined) !== (media.mimetype === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['mimetype'],
          message: 'mimetype goes with buffer, and only with it',
        });
      }
    });
}

const MEDIA_SCHEMAS = {
  image: imageSource,
  video: urlOrBuffer({ caption }),
  audio: urlOrBuffer({}),
  document: urlOrBuffer({ filename: z.string().min(1).max(255), caption }),
  sticker: urlOrBuffer({}),
} satisfies Record<MediaKind, z.ZodType>;

function requireObject(input: unknown, what: string): Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new WakitError('VALIDATION_FAILED', `${what} takes one object argument`);
  }
  return input as Record<string, unknown>;
}

export interface ValidatedSend {
  chatId: string;
  content: OutgoingContent;
}

/** Validates `sendTextMessage` input; chat ids are checked first (INVALID_CHAT_ID). */
export function validateText(input: unknown): ValidatedSend {
  const raw = requireObject(input, 'sendTextMessage');
  const chatId = normalizeChatId(raw.to, 'to');
  const parsed = textSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    throw new WakitError(
      'VALIDATION_FAILED',
      `Invalid text message: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      { issues },
    );
  }
  const options = { ...parsed.data.options };
  if (options.mentions) {
    options.mentions = options.mentions.map((m, i) => normalizeChatId(m, `options.mentions.${i}`));
  }
  return { chatId, content: { kind: 'text', text: parsed.data.text, options } };
}

/** Validates `send<Kind>Message` input: `{ to, <kind>: { ...source } }` with the kind's allowed fields. */
export function validateMedia(kind: MediaKind, input: unknown): ValidatedSend {
  const raw = requireObject(input, `send${kind[0]?.toUpperCase()}${kind.slice(1)}Message`);
  const chatId = normalizeChatId(raw.to, 'to');
  const extra = Object.keys(raw).filter((k) => k !== 'to' && k !== kind);
  const parsed = MEDIA_SCHEMAS[kind].safeParse(raw[kind]);
  if (!parsed.success || extra.length > 0) {
    const issues = [
      ...extra.map((k) => ({ path: k, message: 'unknown field' })),
      ...(parsed.success ? [] : zodIssues(parsed.error, [kind])),
    ];
    throw new WakitError(
      'VALIDATION_FAILED',
      `Invalid ${kind} message: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      { issues },
    );
  }
  const media = parsed.data as {
    url?: string;
    path?: string;
    buffer?: Uint8Array;
    mimetype?: string;
    caption?: string;
    filename?: string;
  };
  const source = media.url
    ? { url: media.url }
    : media.path
      ? { path: media.path }
      : { buffer: Buffer.from(media.buffer ?? []), mimetype: media.mimetype ?? '' };
  return {
    chatId,
    content: {
      kind,
      source,
      ...(media.caption !== undefined ? { caption: media.caption } : {}),
      ...(media.filename !== undefined ? { filename: media.filename } : {}),
    },
  };
}
