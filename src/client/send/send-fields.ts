/**
 * The fields of the send contract (send-contract.ts): text and its options, places, polls, contact
 * cards, and media with exactly one source (`url`, base64 `data`, and in-process `path`/`buffer`).
 */
import { z } from 'zod';
import type { MediaKind } from '../../engines/types.js';

const MAX_TEXT = 65_536;
const httpUrl = z
  .string()
  .max(4096)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL');
const mimetype = z
  .string()
  .max(255)
  .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type like image/png')
  .describe(
    'Required with data (or buffer). With url (or path) the declared type: sent as given; a ' +
      'download whose Content-Type is of another family is 422 MEDIA_TYPE_MISMATCH',
  );
const caption = z.string().max(4096).optional();
export const text = z
  .string()
  .max(MAX_TEXT)
  .refine((t) => t.trim().length > 0, 'must not be empty');

export const textOptionsSchema = z
  .object({
    linkPreview: z.boolean().optional(),
    sendSeen: z.boolean().optional(),
    mentions: z.array(z.string().max(128)).max(256).optional(),
    quotedMessageId: z.string().min(1).max(256).optional(),
  })
  .strict();

/** The options of every send but text: the message it replies to (quotes). */
export const replyOptionsSchema = z
  .object({ quotedMessageId: z.string().min(1).max(256).optional() })
  .strict();

const label = (max: number) =>
  z
    .string()
    .max(max)
    .refine((t) => t.trim().length > 0, 'must not be empty');

/** A place: WhatsApp shows `name` and `address` under the map. */
export const LOCATION_FIELDS = {
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  name: label(256).optional(),
  address: label(1024).optional(),
};
export const locationSchema = z.object(LOCATION_FIELDS).strict();

/**
 * At most `max` items, reported with the field's path. (zod's own `.max()` on arrays stops the
 * parse, so inside the content union the caller would only learn "Invalid input".)
 */
function atMost<T extends z.ZodArray>(schema: T, max: number): T {
  return schema
    .refine((items: unknown[]) => items.length <= max, {
      message: `Too big: expected array to have <=${max} items`,
    })
    .meta({ maxItems: max });
}

/** A poll: WhatsApp takes 2-12 distinct options (names up to 100 characters). */
export const POLL_FIELDS = {
  question: label(255),
  options: atMost(z.array(label(100)).min(2), 12).refine(
    (o) => new Set(o.map((x) => x.trim())).size === o.length,
    'options must be different from each other',
  ),
  allowMultipleAnswers: z.boolean().default(false),
};
export const pollSchema = z.object(POLL_FIELDS).strict();

/** One contact card: a WhatsApp user by chat id, or a vCard (`BEGIN:VCARD` ... `FN:` ... `END:VCARD`). */
const vcard = z
  .string()
  .max(16_384)
  .refine(
    (v) =>
      /^BEGIN:VCARD\r?\n/i.test(v.trim()) &&
      /\r?\nEND:VCARD$/i.test(v.trim()) &&
      /^FN[:;]/im.test(v),
    'must be a vCard: BEGIN:VCARD, an FN line, END:VCARD',
  );
export const contactCardSchema = z.union([
  z.object({ id: z.string().min(1).max(128) }).strict(),
  z.object({ vcard }).strict(),
]);
export const CONTACT_FIELDS = { contacts: atMost(z.array(contactCardSchema).min(1), 50) };

/** What each media kind takes besides its source. */
export const MEDIA_FIELDS = {
  image: { caption },
  video: { caption },
  audio: {},
  document: { filename: z.string().min(1).max(255), caption },
  sticker: {},
} as const;

/** Media sources: `url` and base64 `data` everywhere; `path` and `buffer` only in-process. */
const SOURCES = ['url', 'path', 'buffer', 'data'] as const;
export const sdkSources = {
  url: httpUrl.optional(),
  path: z.string().min(1).max(4096).optional(),
  buffer: z.instanceof(Uint8Array).optional(),
  data: z.base64().min(1).optional(),
};
export const httpSources = { url: httpUrl.optional(), data: z.base64().min(1).optional() };

/**
 * Exactly one source. `mimetype` is required with bytes (`buffer`, `data`); with `url` or `path` it
 * is optional and declares the type: it is sent as given, checked against what the download or the
 * file name says (a different family is MEDIA_TYPE_MISMATCH, default-media-resolver.ts).
 */
function oneSource<T extends z.ZodObject>(schema: T, names: string): T {
  return schema.superRefine((value, ctx) => {
    const media = value as Record<string, unknown>;
    if (SOURCES.filter((k) => media[k] !== undefined).length !== 1) {
      ctx.addIssue({ code: 'custom', message: `exactly one of ${names} is required` });
    }
    const bytes = media.buffer !== undefined || media.data !== undefined;
    if (bytes && media.mimetype === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['mimetype'],
        message: 'mimetype is required with buffer or data',
      });
    }
  });
}

/** The media object of one kind as the SDK takes it (`sendImageMessage({ to, image })`). */
export function sdkMedia<F extends z.ZodRawShape>(fields: F) {
  return oneSource(
    z.object({ ...sdkSources, mimetype: mimetype.optional(), ...fields }).strict(),
    'url, path, buffer or data',
  );
}

/** The media object of one kind with its `type`, as `ctx.send` (sdk) or HTTP (http) take it. */
export function typedMedia<K extends MediaKind, F extends z.ZodRawShape, S extends z.ZodRawShape>(
  kind: K,
  fields: F,
  sources: S,
) {
  const names = 'path' in sources ? 'url, path, buffer or data' : 'url or data';
  return oneSource(
    z
      .object({ type: z.literal(kind), ...sources, mimetype: mimetype.optional(), ...fields })
      .strict(),
    names,
  );
}
