/** The `handoff` section of the configuration: chat modes bot | human | closed (docs/handoff.md). */
import { z } from 'zod';

export const handoffSchema = z
  .object({
    /**
     * A message the account sends in a chat that wakit did not send (a person answering from the
     * phone or from WhatsApp Web) switches that chat to `human`, until the account has been silent
     * there for `silenceMinutes`. Off: only the SDK, REST and operator commands switch modes.
     */
    auto: z.boolean().default(false),
    /** Minutes without a message from the account before an automatic `human` goes back to `bot`. */
    silenceMinutes: z.number().positive().max(43_200).default(30),
    /** Sent to the chat when the bot takes over again after the silence; none when absent. */
    resumeMessage: z.string().min(1).max(4_096).optional(),
    /**
     * An active conversation of a chat that leaves `bot`: `pause` (it keeps waiting, its timers
     * stop and start again when the chat is back to `bot`) or `end` it (reason `ended`).
     */
    conversations: z.enum(['pause', 'end']).default('pause'),
    /**
     * People who may switch modes with `!bot`, `!human`, `!close` (chat ids or phone numbers). The
     * account itself (writing from the phone) always may.
     */
    operators: z.array(z.string().min(1).max(64)).max(1_000).default([]),
  })
  .strict();

export type HandoffConfig = z.output<typeof handoffSchema>;
