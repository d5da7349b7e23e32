import { z } from 'zod';
import { configSchema } from './schema.js';

/** The JSON Schema of bot.config.json, generated from the zod schema (committed as config.schema.json). */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'wakit bot configuration',
  };
}
