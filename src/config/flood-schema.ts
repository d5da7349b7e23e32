import { z } from 'zod';

/** A limit: at most `messages` per `intervalMs` (a token bucket: `messages` at once, then refilled evenly). */
const limit = (messages: number) =>
  z
    .object({
      messages: z.number().int().min(1).default(messages),
      intervalMs: z.number().int().min(1_000).default(60_000),
    })
    .strict();

/**
 * Inbound flood control (docs/safety.md, "Inbound flood control"): a person who writes faster
 * than the limit is not answered (handlers, commands and conversations skip the message; it is
 * still received, emitted and stored) and gets at most one notice per interval.
 */
export const floodSchema = z
  .object({
    /** Off by default: a bot turns it on. */
    enabled: z.boolean().default(false),
    /** In a private chat, per person. */
    direct: limit(20).prefault({}),
    /** In a group, per person in that group. */
    groups: limit(30).prefault({}),
    /** Sent to the chat once per interval when a person is throttled; `null`: no notice. */
    notice: z
      .string()
      .min(1)
      .max(4096)
      .nullable()
      .default('You are sending messages faster than I can answer. I will answer again shortly.'),
    /** People never throttled (the bot's operators): phone numbers or ids (`@c.us`, `@lid`). */
    operators: z.array(z.string().min(1)).default([]),
    /** Chats never throttled (allow-listed): chat ids, or phone numbers for private chats. */
    allowChats: z.array(z.string().min(1)).default([]),
  })
  .strict();

export type FloodConfig = z.output<typeof floodSchema>;
