/**
 * Named HTTP schemas: each schema registered here becomes a component of the REST plugin's
 * OpenAPI document (`#/components/schemas/<id>`), whichever plugin named it, so the built-in routes
 * and schema-typed plugin routes refer to one another's components. Exported by `wakitjs/http`.
 */
import { z } from 'zod';
import { CLIENT_STATES } from '../client/types.js';

type SchemaRegistry = z.core.$ZodRegistry<{ id: string; description?: string }>;

/**
 * One registry per process, even where wakit's modules load twice (as CommonJS and as ES modules
 * under a test runner): the REST plugin documents what any plugin named.
 */
const KEY = Symbol.for('wakitjs.httpSchemas');
const holder = globalThis as { [KEY]?: SchemaRegistry };
export const httpSchemas: SchemaRegistry = (holder[KEY] ??= z.registry());

/** Registers `schema` as the component `id` (once per id) and returns it. */
export function namedSchema<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  httpSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

/** A client's name in a path, query or body: the config's rule. */
export { clientNameSchema } from '../config/schema.js';

/** A client's state (`READY`, `SCAN_QR`, ...): the component `ClientStatus`. */
export const clientStatusSchema = namedSchema('ClientStatus', z.enum(CLIENT_STATES));
