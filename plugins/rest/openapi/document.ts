/**
 * The OpenAPI 3.1 document, generated from the route table and the zod schemas the routes validate
 * with (`z.toJSONSchema`), so the document cannot drift from the code. What zod refinements check
 * (which JSON Schema cannot see) is added where the schemas are turned into JSON Schema
 * (openapi-refinements.ts); what many operations share (errors answered before routing, header
 * parameters) is declared once (openapi-shared.ts). Every GET operation is also served as HEAD.
 */
import { z } from 'zod';
import type { AnyRoute, ResponseSpec } from '../route.js';
import { ownSchemaIds, restSchemas } from '../schemas/schema-registry.js';
import { refineJsonSchema } from './openapi-refinements.js';
import {
  HEADER_PARAMETERS,
  QUEUED_SUCCESS_HEADERS,
  errorComponents,
  errorResponse,
  errorResponseName,
  errorStatuses,
  isQueued,
} from './openapi-shared.js';
import * as http from '../../../src/entries/http.js';

type Json = Record<string, unknown>;

const JSON_SCHEMA_OPTIONS = {
  io: 'input',
  unrepresentable: 'any',
  override: refineJsonSchema,
} as const;

function strip(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function schemaRef(schema: z.ZodType): Json {
  const id = restSchemas.get(schema)?.id;
  if (id) return { $ref: `#/components/schemas/${id}` };
  return strip(z.toJSONSchema(schema, JSON_SCHEMA_OPTIONS));
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {};
  return (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
}

function isEventStream(route: AnyRoute): boolean {
  return Object.values(route.responses).some((spec) => spec.raw?.['text/event-stream']);
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
  const headers = isQueued(route)
    ? ['Prefer', 'IdempotencyKey']
    : isEventStream(route)
      ? ['LastEventId']
      : [];
  for (const name of headers) out.push({ $ref: `#/components/parameters/${name}` });
  return out;
}

function response(spec: ResponseSpec, extraHeaders: Json | undefined): Json {
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
  const headers: Json = { ...extraHeaders };
  for (const [name, description] of Object.entries(spec.headers ?? {}))
    headers[name] = { description, schema: { type: 'string' } };
  if (Object.keys(headers).length > 0) out.headers = headers;
  return out;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** Whether the route's request body (as JSON Schema) has a `client` property. */
function bodyNamesClient(body: Json | undefined, schemas: Record<string, Json>): boolean {
  let schema = body;
  const ref = schema?.$ref;
  if (typeof ref === 'string') schema = schemas[ref.split('/').pop() ?? ''];
  const properties = schema?.properties as Json | undefined;
  return properties !== undefined && 'client' in properties;
}

/** A route's own answer for a status, which may also be the shared problem answer. */
function withProblem(own: Json, shared: Json): Json {
  return {
    description: `${String(own.description)}; or: ${String(shared.description)}`,
    content: { ...(own.content as Json), ...(shared.content as Json) },
    ...(own.headers || shared.headers
      ? { headers: { ...(shared.headers as Json), ...(own.headers as Json) } }
      : {}),
  };
}

/** The same operation as HEAD: its answers without their bodies. */
function headOf(operation: Json): Json {
  const responses: Json = {};
  for (const [status, answer] of Object.entries(operation.responses as Record<string, Json>)) {
    if (answer.$ref) {
      responses[status] = answer;
      continue;
    }
    const { content: _content, ...rest } = answer;
    responses[status] = rest;
  }
  return {
    ...operation,
    operationId: `${String(operation.operationId)}Head`,
    summary: `${String(operation.summary)} (headers only)`,
    responses,
  };
}

const REF = /"#\/components\/schemas\/([^"]+)"/g;

/**
 * The components: the REST plugin's own, and those the operations refer to (a plugin's named
 * schemas, listed only while a mounted route of it uses them), with what they refer to.
 */
function listedSchemas(named: Record<string, Json>, paths: Json): Record<string, Json> {
  const listed = new Set([...ownSchemaIds].filter((id) => id in named));
  const pending = [JSON.stringify(paths), ...[...listed].map((id) => JSON.stringify(named[id]))];
  for (let text = pending.pop(); text !== undefined; text = pending.pop()) {
    for (const [, id = ''] of text.matchAll(REF)) {
      if (listed.has(id) || !(id in named)) continue;
      listed.add(id);
      pending.push(JSON.stringify(named[id]));
    }
  }
  return Object.fromEntries(Object.entries(named).filter(([id]) => listed.has(id)));
}

export function buildOpenApi(routes: readonly AnyRoute[], info: OpenApiInfo): Json {
  // Input shapes: request bodies are parsed (and transformed) from them; an output view of a
  // transforming schema such as SendMessageRequest would be empty.
  const generated = z.toJSONSchema(http.httpSchemas, {
    ...JSON_SCHEMA_OPTIONS,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  const named = Object.fromEntries(
    Object.entries(generated.schemas).map(([id, schema]) => [id, strip(schema)]),
  );
  const paths: Record<string, Json> = {};
  const usedErrors: [number, boolean][] = [];
  for (const route of routes) {
    const queued = isQueued(route);
    const responses: Json = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      const headers = queued && (status === '201' || status === '202');
      responses[status] = response(spec, headers ? QUEUED_SUCCESS_HEADERS : undefined);
    }
    const body = route.body ? schemaRef(route.body) : undefined;
    for (const status of errorStatuses(route, bodyNamesClient(body, named))) {
      const own = responses[String(status)] as Json | undefined;
      // a status the route answers itself (503 of /readyz) may also be a problem
      if (own) responses[String(status)] = withProblem(own, errorResponse(status, queued));
      else {
        usedErrors.push([status, queued]);
        responses[String(status)] = {
          $ref: `#/components/responses/${errorResponseName(status, queued)}`,
        };
      }
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
    if (body) {
      operation.requestBody = {
        required: route.bodyOptional !== true,
        content: { 'application/json': { schema: body } },
      };
    }
    if (route.auth === false) operation.security = [];
    const method = route.method.toLowerCase();
    const item = (paths[route.path] ??= {});
    item[method] = operation;
    if (method === 'get') item.head = headOf(operation);
  }
  const schemas = listedSchemas(named, paths);
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas,
      responses: errorComponents(usedErrors),
      parameters: HEADER_PARAMETERS,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}
