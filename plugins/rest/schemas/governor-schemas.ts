/** The send governor in the REST API: an account's budgets, use and restriction (docs/safety.md). */
import { z } from 'zod';
import { named } from './schema-registry.js';

const isoTime = z.string().describe('ISO 8601 time');
const count = z.number().int();
const perBudget = <T extends z.ZodType>(value: T) =>
  z.object({ perHour: value, perDay: value, newContactsPerDay: value }).strict();

export const GovernorInfo = named(
  'GovernorInfo',
  z
    .object({
      preset: z.enum(['conservative', 'standard', 'off']),
      mode: z.enum(['enforce', 'dry-run']),
      warmupDay: count.nullable().describe('Age of the number in days while it warms up'),
      limits: perBudget(count).nullable().describe('The limits that apply now'),
      used: perBudget(count).describe('Messages counted in each rolling window'),
      resetsAt: perBudget(isoTime.nullable()).describe(
        'When the oldest message counted in each window leaves it',
      ),
      deferred: count,
      wouldDefer: count.describe('Dry run: sends that would have been deferred'),
      bypassed: count.describe('Sends that went with bypassBudget'),
      restricted: z
        .object({ reason: z.string(), since: isoTime, until: isoTime })
        .strict()
        .nullable()
        .describe('WhatsApp signalled a restriction: bulk sends pause until `until`'),
    })
    .strict(),
);
