import { z } from 'zod';
import { configSchema } from './schema.js';

type Json = Record<string, unknown>;

function optionsJsonSchema(name: string, schema: z.ZodType | undefined): Json {
  if (!schema) throw new Error(`plugin ${name} has no options schema`);
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Json;
  if ('$defs' in rest) throw new Error(`options of plugin ${name} need $defs: inline them`);
  return rest;
}

/**
 * The JSON Schema of bot.config.json, generated from the zod schema (committed as
 * config.schema.json by `npm run schema`). `pluginOptions` adds each built-in plugin's options
 * schema under `plugins.<name>` (an object, or `false` to turn it off), so editors complete them.
 */
export function configJsonSchema(pluginOptions: Record<string, z.ZodType> = {}): Json {
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as Json & {
    properties: Record<string, Json>;
  };
  const names = Object.keys(pluginOptions).sort();
  if (names.length > 0) {
    schema.properties.plugins = {
      ...schema.properties.plugins,
      description:
        'Plugins by built-in name, ./path or package name: their options, or false to turn one off.',
      properties: Object.fromEntries(
        names.map((name) => [
          name,
          {
            anyOf: [
              optionsJsonSchema(name, pluginOptions[name]),
              { const: false, description: `turn ${name} off` },
            ],
          },
        ]),
      ),
    };
  }
  return { ...schema, title: 'wakit bot configuration' };
}
