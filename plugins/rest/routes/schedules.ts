/**
 * `GET /api/v1/schedules`: the recurring jobs plugins registered with `ctx.schedule`
 * (docs/scheduling.md "Recurring jobs"), each with its cron expression, time zone, catch-up policy,
 * next run and last run. Jobs belong to plugins, not to clients: any valid token sees them.
 */
import { z } from '../../../src/index.js';
import type { RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { restSchemas } from '../schemas/api-schemas.js';

export const ScheduleInfo = z
  .object({
    plugin: z.string(),
    name: z.string().describe('Unique within its plugin (default: the cron expression)'),
    cron: z.string().describe('The cron expression (croner syntax, 5 or 6 fields)'),
    timezone: z.string().describe('IANA time zone the expression is read in'),
    catchUp: z
      .enum(['none', 'last'])
      .describe(
        'Firings missed while the bot was down: skipped (`none`) or the last one run (`last`)',
      ),
    nextRun: z.string().nullable().describe('ISO 8601; null when the expression never fires again'),
    lastRun: z
      .string()
      .nullable()
      .describe('Firing time of the last run (on any node of a fleet); null before the first'),
    running: z.boolean().describe('Whether the node answering runs the handler now'),
  })
  .strict();
restSchemas.add(ScheduleInfo, { id: 'ScheduleInfo' });

export const ScheduleList = z.array(ScheduleInfo);
restSchemas.add(ScheduleList, { id: 'ScheduleList' });

export function scheduleRoutes(rc: RestContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/schedules',
      operationId: 'listSchedules',
      summary: 'Recurring jobs of plugins, with their next and last run',
      description:
        "Every job plugins registered with `ctx.schedule`: its cron expression and time zone, its catch-up policy, when it fires next and when it last ran (in a fleet, on any node). 503 when the fleet's Redis cannot be read.",
      tag: 'system',
      responses: { 200: { description: 'The recurring jobs', schema: ScheduleList } },
      errors: [401, 503],
      async handler(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await rc.sdk.schedules.list();
      },
    }),
  ];
}
