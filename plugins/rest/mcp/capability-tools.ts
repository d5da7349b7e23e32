/**
 * MCP tools generated from the capability declarations (src/capabilities/, reached through
 * `BotClient.capabilities`), as the SDK methods, REST routes and OpenAPI entries are: one tool per
 * declaration, named `<area>_<method>` (`chats_pin`), its input the declaration's input plus
 * `client`, its annotations from the declaration's `effect`. A direct capability calls the SDK
 * method a bot calls (`client.<area>.<method>(…)`, which validates and needs READY); a queued one
 * hands the declaration's prepared send to the client's queue (governor, outbox) and answers its
 * tracking id, as REST's 202 does.
 */
import { z } from 'zod';
import { BotClient } from '../../../src/index.js';
import { clientArg, defineTool, parseArgs, type McpTool } from './mcp-tool.js';
import { queuedAnswer } from './send-tools.js';

type Declaration = (typeof BotClient.capabilities)[number];
type Method = (...args: unknown[]) => Promise<unknown>;

const idempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/)
  .optional()
  .describe('Makes a retry safe: the same key (per token and client) is queued once');

/** `client.<area>.<method>` of a declaration named `area.method`. */
function methodOf(bot: BotClient, name: string): Method {
  const [area = '', method = ''] = name.split('.');
  const manager = (bot as unknown as Record<string, Record<string, Method> | undefined>)[area];
  const fn = manager?.[method];
  if (!fn) throw new Error(`client.${name} does not exist`);
  return fn.bind(manager);
}

/** A declaration's effect: as declared, else `read` for a GET route and `destructive` otherwise. */
function effectOf(capability: Declaration): McpTool['effect'] {
  return capability.effect ?? (capability.http?.method === 'GET' ? 'read' : 'destructive');
}

function toolOf(capability: Declaration): McpTool {
  const queued = capability.mode === 'queued';
  const input = z
    .object({
      client: clientArg,
      ...capability.input.shape,
      ...(queued ? { idempotencyKey } : {}),
    })
    .strict();
  const summary = queued
    ? `${capability.summary}. Queued like a send (paced, journaled): answers its tracking id; messages_status follows it.`
    : capability.summary;
  return defineTool({
    name: capability.name.replace('.', '_'),
    title: capability.http?.summary ?? capability.summary,
    description: `${summary} (docs: ${capability.docs})`,
    input,
    effect: effectOf(capability),
    idempotent: effectOf(capability) === 'read',
    async call(backend, args) {
      const { client: name, idempotencyKey: key, ...fields } = args;
      if (capability.mode === 'queued') {
        const bot = backend.client(name as string | undefined, { local: true });
        const send = capability.prepare(
          parseArgs(capability.name, capability.input, fields),
          bot.info().me?.id ?? '',
        );
        return queuedAnswer(backend, bot, send, key as string | undefined);
      }
      const bot = backend.client(name as string | undefined);
      const values: unknown[] = capability.args.map((arg) => fields[arg]);
      if (capability.options?.length) {
        values.push(
          Object.fromEntries(capability.options.map((option) => [option, fields[option]])),
        );
      }
      const result = await methodOf(bot, capability.name)(...values);
      return result === undefined ? { ok: true } : result;
    },
  });
}

/** One tool per declared capability, in table order. */
export function capabilityTools(): McpTool[] {
  return BotClient.capabilities.map(toolOf);
}
