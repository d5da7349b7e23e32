/** The registry of named REST schemas: each becomes an OpenAPI component (`openapi.ts`). */
import { z } from 'zod';

export const restSchemas = z.registry<{ id: string; description?: string }>();

/** Registers `schema` as the component `id`. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  restSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}
