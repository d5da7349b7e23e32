import { z } from 'zod';

/** ISO time or ms since epoch. */
const instant = z.union([z.iso.datetime({ offset: true }), z.number().int().min(0)]);

/**
 * The send governor (docs/safety.md): per-account budgets, warm-up of a young number, and what to
 * do when WhatsApp signals a restriction. The numbers of the presets are in src/governor/presets.ts.
 */
export const governorSchema = z
  .object({
    /**
     * `standard` (the default with whatsapp-web.js), `conservative`, or `off` (the default on the
     * simulator, where no real number is at stake: tests and `wakit dev` send fast).
     */
    preset: z.enum(['conservative', 'standard', 'off']).optional(),
    /** `enforce` defers sends beyond a budget; `dry-run` only reports (logs, info) what it would defer. */
    mode: z.enum(['enforce', 'dry-run']).default('enforce'),
    /** Overrides of the preset's limits. */
    perHour: z.number().int().min(1).optional(),
    perDay: z.number().int().min(1).optional(),
    newContactsPerDay: z.number().int().min(0).optional(),
    warmupDays: z.number().int().min(0).optional(),
    cooldownMs: z.number().int().min(0).optional(),
    /**
     * What a restriction signal does for the cool-down: `pause-bulk` (bulk and normal sends wait,
     * replies go), `replies-only` (only replies inside an open conversation go), `stop` (nothing).
     */
    onRestriction: z.enum(['pause-bulk', 'replies-only', 'stop']).default('pause-bulk'),
    /** A conversation is open this long after the contact last wrote (WhatsApp's 24 h window). */
    openConversationMs: z
      .number()
      .int()
      .min(0)
      .default(24 * 3_600_000),
    /**
     * A run of this many consecutive sends to new contacts that each stay at one tick (sent, never
     * delivered) for `undeliveredAfterMs` is a restriction signal (`undelivered`); 0: off.
     */
    undeliveredRun: z.number().int().min(0).default(10),
    undeliveredAfterMs: z
      .number()
      .int()
      .min(1)
      .default(10 * 60_000),
    /** Per client: when its number was first linked (its warm-up day 1), if not the governor's record. */
    accounts: z.record(z.string(), z.object({ linkedAt: instant }).strict()).default({}),
  })
  .strict();

export type GovernorConfig = z.output<typeof governorSchema>;
