/**
 * Schemas of the simulator's routes (phone-routes.ts, action-routes.ts): phones, their inboxes,
 * scans, calls and actions. Named, so they are components of the REST plugin's OpenAPI document.
 */
import { z } from 'zod';
import { CHAT_STATES, contactCardSchema, locationSchema, pollSchema } from '../entries/contract.js';
import {
  clientNameSchema as clientNameParam,
  clientStatusSchema as ClientStatus,
  namedSchema as named,
} from '../entries/http.js';

export const SimSendRequest = named(
  'SimulatorSendRequest',
  z
    .object({
      /** The text, or the image's caption. */
      text: z.string().min(1).max(65_536).optional(),
      /** An image the phone sends (base64, within the request body limit). */
      image: z
        .object({
          data: z.base64().min(4),
          mimetype: z.string().regex(/^image\/[a-z0-9.+-]+$/, 'must be an image/* MIME type'),
          filename: z.string().min(1).max(255).optional(),
        })
        .strict()
        .optional(),
      /** A location the phone shares (instead of text or an image). */
      location: locationSchema.optional(),
      /** A poll the phone creates. */
      poll: pollSchema.optional(),
      /** Contact cards the phone shares: WhatsApp users by id, or vCards. */
      contacts: z.array(contactCardSchema).min(1).max(50).optional(),
      /** Id of the message this one replies to. */
      quotedMessageId: z.string().min(1).max(256).optional(),
      /** People the text or caption mentions: numbers, `@c.us` or `@lid` ids. */
      mentions: z.array(z.string().min(1).max(128)).max(256).optional(),
      /** Chat to write to; the client's own number when absent. */
      to: z.string().min(1).max(128).optional(),
      client: clientNameParam.optional(),
    })
    .strict()
    .superRefine((b, ctx) => {
      const kinds = [b.location, b.poll, b.contacts].filter((k) => k !== undefined).length;
      const plain = b.text !== undefined || b.image !== undefined;
      if (kinds + (plain ? 1 : 0) !== 1) {
        ctx.addIssue({
          code: 'custom',
          message: 'send a text and/or an image, or one location, poll or contacts',
        });
      }
    })
    .meta({
      oneOf: [
        { anyOf: [{ required: ['text'] }, { required: ['image'] }] },
        { required: ['location'] },
        { required: ['poll'] },
        { required: ['contacts'] },
      ],
    }),
);
export const SimVoteRequest = named(
  'SimulatorVoteRequest',
  z
    .object({
      /** The poll: its id as the bot got it back from the send, or as the phone received it. */
      messageId: z.string().min(1).max(256),
      /** Names of the chosen options; none retracts the vote. */
      options: z.array(z.string().min(1).max(100)).max(12),
    })
    .strict(),
);
export const SimVoted = named(
  'SimulatorVoted',
  z.object({ messageId: z.string(), options: z.array(z.string()) }).strict(),
);
export const SimSent = named('SimulatorSent', z.object({ id: z.string() }).strict());
export const SimInboxMessage = named(
  'SimulatorInboxMessage',
  z
    .object({
      id: z.string(),
      chatId: z.string(),
      author: z.string(),
      type: z.string(),
      body: z.string(),
      timestamp: z.number(),
      ack: z.number(),
      isGroup: z.boolean(),
      media: z
        .object({ mimetype: z.string(), filename: z.string().optional(), size: z.number() })
        .strict()
        .optional(),
      quotedMessageId: z.string().optional(),
      /** The people it mentions, as chat ids. */
      mentionedIds: z.array(z.string()),
      location: z
        .object({
          latitude: z.number(),
          longitude: z.number(),
          name: z.string().optional(),
          address: z.string().optional(),
        })
        .strict()
        .optional(),
      poll: z
        .object({
          question: z.string(),
          options: z.array(z.string()),
          allowMultipleAnswers: z.boolean(),
        })
        .strict()
        .optional(),
      vcards: z.array(z.string()).optional(),
    })
    .strict(),
);
export const SimInbox = named('SimulatorInbox', z.array(SimInboxMessage));
export const PhoneParam = z.string().regex(/^\d{6,15}$/, 'must be 6-15 digits');

export const SimScanRequest = named(
  'SimulatorScanRequest',
  z
    .object({
      /** Client whose QR is scanned; the default client when absent. */
      client: clientNameParam.optional(),
      /** Number of the phone that scans (the bot's number once linked); a new one when absent. */
      phone: PhoneParam.optional(),
      pushname: z.string().min(1).max(64).optional(),
    })
    .strict(),
);

export const SimScanned = named(
  'SimulatorScanned',
  z.object({ client: z.string(), status: ClientStatus }),
);

export const SimCallRequest = named(
  'SimulatorCallRequest',
  z
    .object({
      /** Who is called: a number, `@c.us`, `@lid` or a group; the client's number when absent. */
      to: z.string().min(1).max(128).optional(),
      client: clientNameParam.optional(),
      video: z.boolean().optional(),
    })
    .strict(),
);

export const SimCallPlaced = named(
  'SimulatorCallPlaced',
  z
    .object({ id: z.string(), to: z.string(), state: z.enum(['ringing', 'rejected', 'ended']) })
    .strict(),
);

export const SimReactionRequest = named(
  'SimReactionRequest',
  z.object({ messageId: z.string().min(1).max(256), emoji: z.string().max(32) }).strict(),
);

export const SimEditRequest = named(
  'SimEditRequest',
  z.object({ text: z.string().min(1).max(65_536) }).strict(),
);

export const SimAction = named(
  'SimAction',
  z
    .object({
      type: z.enum(['reaction', 'edit', 'revoke', 'chat-state', 'seen']),
      by: z.string(),
      chatId: z.string(),
      messageId: z.string().optional(),
      emoji: z.string().optional(),
      body: z.string().optional(),
      previousBody: z.string().optional(),
      state: z.enum(CHAT_STATES).optional(),
      at: z.number().int(),
    })
    .strict(),
  'What a simulated phone saw others do in its chats',
);
export const SimActionList = named('SimActionList', z.array(SimAction));
