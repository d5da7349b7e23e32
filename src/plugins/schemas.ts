import { z } from 'zod';
import { normalizeChatId } from '../client/chat-id.js';

/**
 * A chat id in plugin options: any kind of src/client/chat-id.ts (`@c.us`, `@lid`, `@g.us`,
 * `@newsletter`, `status@broadcast`) or a phone number (normalised to `@c.us`). Invalid ids are
 * option errors with their path.
 */
export const chatIdSchema = z.string().transform((value, ctx) => {
  try {
    return normalizeChatId(value, 'chat id');
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(value)} is not a chat id (a phone number, <digits>@c.us, <digits>@lid, <id>@g.us, <id>@newsletter or status@broadcast)`,
    });
    return z.NEVER;
  }
});

/** A regular expression source; invalid patterns are option errors. */
export const regexSourceSchema = z.string().superRefine((source, ctx) => {
  try {
    new RegExp(source);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `invalid regular expression: ${(error as Error).message}`,
    });
  }
});
