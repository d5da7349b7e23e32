/**
 * `chatIdParam` of the forward route's schemas and the schemas of the simulator's calls
 * (simulator.ts), registered in `restSchemas` so that they become OpenAPI components. The chats
 * routes are generated from src/capabilities/chats.ts.
 */
import { z } from 'zod';
import { chatIdPattern } from '../../../src/entries/contract.js';
import type { ChatKind } from '../../../src/entries/types.js';
import { restSchemas, clientNameParam } from '../schemas.js';

function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  restSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

/**
 * A chat id (or phone number) of `kinds` in a path: checked and normalised by the SDK
 * (INVALID_CHAT_ID); the pattern says the same in the OpenAPI document.
 */
export function chatIdParam(kinds: readonly ChatKind[]) {
  return z
    .string()
    .min(1)
    .max(128)
    .meta({ pattern: chatIdPattern(kinds) });
}

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
