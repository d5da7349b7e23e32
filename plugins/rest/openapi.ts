/**
 * The OpenAPI 3.1 document, generated from the route table and the zod schemas the routes validate
 * with (`z.toJSONSchema`), so the document cannot drift from the code.
 */
import { z } from 'zod';
import type { AnyRoute, ResponseSpec } from './route.js';
import { restSchemas } from './schemas.js';

type Json = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (VALIDATION_FAILED, INVALID_CHAT_ID)',
  401: 'Missing or invalid token (UNAUTHORIZED)',
  403: 'Token may not access this client (FORBIDDEN, PERMISSION_DENIED)',
  404: 'Not found (CLIENT_NOT_FOUND, MESSAGE_NOT_FOUND, CHAT_NOT_FOUND)',
  409: 'Conflict with the client state (CLIENT_NOT_READY, QR_NOT_AVAILABLE, INVALID_STATE)',
  413: 'Body or media too large (PAYLOAD_TOO_LARGE, MEDIA_TOO_LARGE)',
  415: 'Body is not application/json (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Too many (QUEUE_FULL, TOO_MANY_REQUESTS)',
  501: 'Not supported by the engine (NOT_SUPPORTED)',
  502: 'Upstream failure (MEDIA_DOWNLOAD_FAILED, ENGINE_ERROR)',
  503: 'Not ready or shutting down',
  504: 'Timed out (SEND_TIMEOUT)',
};

function strip(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function schemaRef(schema: z.ZodType): Json {
  const id = restSchemas.get(schema)?.id;
  if (id) return { $ref: `#/components/schemas/${id}` };
  return strip(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {};
  return (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
}

function parameters(route: AnyRoute): Json[] {
  const out: Json[] = [];
  for (const [name, schema] of Object.entries(shapeOf(route.params))) {
    out.push({ name, in: 'path', required: true, schema: schemaRef(schema) });
  }
  for (const [name, schema] of Object.entries(shapeOf(route.query))) {
    out.push({
      name,
      in: 'query',
      required: !schema.safeParse(undefined).success,
      schema: schemaRef(schema),
    });
  }
  return out;
}

function response(spec: ResponseSpec): Json {
  const content: Json = {};
  if (spec.schema && !spec.raw?.['text/event-stream'])
    content['application/json'] = { schema: schemaRef(spec.schema) };
  for (const [type, description] of Object.entries(spec.raw ?? {})) {
    if (type.endsWith('json')) content[type] = { schema: { type: 'object', description } };
    else if (type.startsWith('text/')) content[type] = { schema: { type: 'string', description } };
    else content[type] = { schema: { type: 'string', format: 'binary', description } };
  }
  const out: Json = { description: spec.description };
  if (Object.keys(content).length > 0) out.content = content;
  if (spec.headers) {
    out.headers = Object.fromEntries(
      Object.entries(spec.headers).map(([name, description]) => [
        name,
        { description, schema: { type: 'string' } },
      ]),
    );
  }
  return out;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

export function buildOpenApi(routes: readonly AnyRoute[], info: OpenApiInfo): Json {
  // Input shapes: request bodies are parsed (and transformed) from them; an output view of a
  // transforming schema such as SendMessageRequest would be empty.
  const generated = z.toJSONSchema(restSchemas, {
    uri: (id) => `#/components/schemas/${id}`,
    io: 'input',
    unrepresentable: 'any',
  }) as { schemas: Record<string, Json> };
  const schemas = Object.fromEntries(
    Object.entries(generated.schemas).map(([id, schema]) => [id, strip(schema)]),
  );
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const responses: Json = {};
    for (const [status, spec] of Object.entries(route.responses))
      responses[status] = response(spec);
    const errors = new Set(route.errors ?? []);
    if (route.auth !== false) errors.add(401);
    errors.add(500);
    for (const status of [...errors].sort()) {
      responses[String(status)] = {
        description: STATUS_TEXT[status] ?? 'Error',
        content: {
          'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
        },
      };
    }
    const operation: Json = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      responses,
    };
    if (route.description) operation.description = route.description;
    const params = parameters(route);
    if (params.length > 0) operation.parameters = params;
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: schemaRef(route.body) } },
      };
    }
    if (route.auth === false) operation.security = [];
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}
