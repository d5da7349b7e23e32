/**
 * What zod refinements check, as JSON Schema: `z.toJSONSchema` cannot see inside a `.refine()`,
 * so without this the document would accept requests the server refuses. Run as its `override`
 * hook on every schema; each rule names the refinement it mirrors (src/client/send/send-fields.ts,
 * send-contract.ts, zod's URL check).
 */
import type { z } from 'zod';
import * as contract from '../../../src/entries/contract.js';

type Json = Record<string, unknown>;

interface OverrideContext {
  zodSchema: z.core.$ZodTypes | z.ZodType;
  jsonSchema: Json;
  /** Where the schema is within the one being converted (`['properties', 'a', 'items']`). */
  path: (string | number)[];
}

/** `https?` → `[Hh][Tt][Tt][Pp][Ss]?`: URL schemes are matched without regard to case. */
function caseless(source: string): string {
  return source.replace(/[a-z]/gi, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
}

/** The http(s) URLs of media sources (`httpUrl` of send-fields.ts). */
const HTTP_URL = `^${caseless('https?')}://`;

function defOf(schema: OverrideContext['zodSchema']): Json {
  return (schema as unknown as { _zod: { def: Json } })._zod.def;
}

function shapeKeys(def: Json): string[] {
  return def.type === 'object' ? Object.keys(def.shape as Json) : [];
}

/** zod's `z.url({ protocol })`: the protocol as a pattern. */
function urlProtocol(def: Json, json: Json): void {
  if (def.format !== 'url' || !(def.protocol instanceof RegExp)) return;
  const source = def.protocol.source.replace(/^\^/, '').replace(/\$$/, '');
  json.pattern = `^${caseless(`(?:${source})`)}:`;
}

/**
 * A media object of the HTTP send contract: exactly one source, `url` (http(s)) or base64 `data`;
 * `mimetype` is required with `data` and optional with `url` (what the caller says it is).
 */
function mediaSources(keys: string[], json: Json): void {
  if (!keys.includes('url') || !keys.includes('data') || keys.includes('path')) return;
  const properties = json.properties as Record<string, Json>;
  if (properties.url) properties.url.pattern = HTTP_URL;
  json.oneOf = [
    { required: ['url'], not: { required: ['data'] } },
    { required: ['data', 'mimetype'], not: { required: ['url'] } },
  ];
}

/**
 * The HTTP send body: `chatId` a chat id or phone number (send-contract's normalizeChatId); text
 * must not be blank; `options` other than `quotedMessageId` are text-only.
 */
function sendBody(keys: string[], json: Json): void {
  if (!keys.includes('chatId') || !keys.includes('content') || !keys.includes('options')) return;
  const properties = json.properties as Record<string, Json>;
  if (properties.chatId)
    properties.chatId.pattern = contract.chatIdPattern(contract.SEND_TARGET_KINDS);
  const branches = (properties.content?.anyOf ?? []) as Json[];
  for (const branch of branches) if (branch.type === 'string') branch.pattern = '\\S';
  json.if = { properties: { content: { type: 'string' } } };
  json.else = {
    properties: {
      options: {
        type: 'object',
        properties: { quotedMessageId: true },
        additionalProperties: false,
      },
    },
  };
}

/** Text options: mentions are people (`@c.us`, `@lid` or phone numbers). */
function mentions(def: Json, path: (string | number)[], json: Json): void {
  if (def.type === 'string' && path.slice(-2).join('/') === 'mentions/items')
    json.pattern = contract.chatIdPattern(contract.PERSON_KINDS);
}

export function refineJsonSchema(ctx: OverrideContext): void {
  const def = defOf(ctx.zodSchema);
  const keys = shapeKeys(def);
  urlProtocol(def, ctx.jsonSchema);
  mediaSources(keys, ctx.jsonSchema);
  sendBody(keys, ctx.jsonSchema);
  mentions(def, ctx.path, ctx.jsonSchema);
}
