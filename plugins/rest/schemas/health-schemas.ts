/** Engine health in the REST API: the health check and the held-send retry (docs/engines.md). */
import { z } from 'zod';
import { named } from './schema-registry.js';
import * as contract from '../../../src/entries/contract.js';

const isoTime = z.string().describe('ISO 8601 time');

const CapabilityResult = z.object({ ok: z.boolean(), detail: z.string().optional() }).strict();

export const EngineHealth = named(
  'EngineHealth',
  z
    .object({
      status: z.enum(['ok', 'degraded']),
      build: z.string().nullable().describe('The WhatsApp Web build the engine runs'),
      library: z.string().nullable().describe('e.g. whatsapp-web.js 1.34.7'),
      checkedAt: isoTime,
      broken: z.array(z.enum(contract.CAPABILITIES)),
      capabilities: z.record(z.enum(contract.CAPABILITIES), CapabilityResult),
      pin: z
        .object({
          pinned: z.string().nullable().describe('engine.webVersion; null: unpinned (live)'),
          running: z.string().nullable().describe('The build the page reports'),
          status: z.enum(['held', 'mismatch', 'unpinned', 'unknown']),
        })
        .strict()
        .optional()
        .describe('The pin against the running build (whatsapp-web.js engine)'),
      compat: z.array(
        z
          .object({
            id: z.string(),
            source: z.string(),
            needed: z.boolean().nullable(),
            applied: z.boolean(),
            detail: z.string().optional(),
          })
          .strict(),
      ),
    })
    .strict(),
  'The last engine health check: capabilities on this WhatsApp Web build and the compat fixes',
);

export const HeldRetry = named(
  'HeldRetry',
  z.object({ retried: z.number().int().describe('Held sends put back in the queue') }).strict(),
);
