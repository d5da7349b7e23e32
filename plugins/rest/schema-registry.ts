/**
 * The registry of named REST schemas: each becomes an OpenAPI component (`openapi.ts`). It is the
 * core's (`wakitjs/http`), shared with the schema-typed routes of other plugins.
 */
export { httpSchemas as restSchemas, namedSchema as named } from '../../src/entries/http.js';
