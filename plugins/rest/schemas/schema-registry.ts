/**
 * The registry of named REST schemas: each becomes an OpenAPI component (`openapi.ts`). They are
 * kept in the core's registry (`wakitjs/http`), shared with the schema-typed routes of other
 * plugins; the ids named here are the REST plugin's own, listed whether a route refers to them or
 * not (a plugin's components are listed when a mounted route refers to them).
 */
import type { z } from 'zod';
import * as http from '../../../src/entries/http.js';

type Meta = { id: string; description?: string };

const own = new Set<string>();

/** The ids the REST plugin named. */
export const ownSchemaIds: ReadonlySet<string> = own;

export const restSchemas = {
  add(schema: z.ZodType, meta: Meta): void {
    own.add(meta.id);
    http.httpSchemas.add(schema, meta);
  },
  get: (schema: z.ZodType): Meta | undefined => http.httpSchemas.get(schema),
};

/** Registers `schema` as the component `id`. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  restSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}
