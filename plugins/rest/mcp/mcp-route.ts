/**
 * `POST /api/v1/mcp`: the MCP server over Streamable HTTP, stateless (a server and a transport per
 * request, no session id; JSON answers, no SSE stream: `GET` is 405), behind the bearer token like
 * every route. The token's client scopes are the tools' (restBackend): a tool that names another
 * client is FORBIDDEN. The body is read and checked as every REST body is (size limit, UTF-8 JSON).
 */
import { z } from 'zod';
import { WakitError } from '../../../src/index.js';
import type { RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { named } from '../schemas/schema-registry.js';
import { restBackend } from './mcp-backend.js';
import { createMcpServer } from './mcp-server.js';

/** The version `initialize` answers (of wakit's MCP tools, not of the protocol). */
export const MCP_SERVER_VERSION = '1.0.0';

const McpMessage = named(
  'McpMessage',
  z
    .object({
      jsonrpc: z.literal('2.0'),
      method: z.string().min(1).max(256).optional(),
      id: z.union([z.string(), z.number()]).optional(),
    })
    .loose(),
  'A JSON-RPC 2.0 message of the Model Context Protocol (a request, a notification or a response): docs/mcp.md',
);

/** The transport answers JSON or an event stream: a client must accept both (MCP, Streamable HTTP). */
function requireAccept(accept: string): void {
  const types = accept.split(',').map((part) => part.split(';')[0]?.trim().toLowerCase());
  const json = types.some((t) => t === 'application/json' || t === 'application/*' || t === '*/*');
  const stream = types.some((t) => t === 'text/event-stream' || t === 'text/*' || t === '*/*');
  if (!json || !stream) {
    throw new WakitError(
      'NOT_ACCEPTABLE',
      'MCP over Streamable HTTP needs Accept: application/json, text/event-stream',
    );
  }
}

export function mcpRoutes(rc: RestContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/mcp',
      operationId: 'mcp',
      summary: 'Model Context Protocol (Streamable HTTP): wakit as tools and resources for agents',
      description:
        "One JSON-RPC message per request, stateless (no `Mcp-Session-Id`); the answer is JSON. The tools act within the token's clients. See docs/mcp.md.",
      tag: 'mcp',
      body: McpMessage,
      responses: {
        200: {
          description:
            'The JSON-RPC response (a tool failure is a result with `isError` and its wakit code)',
          raw: { 'application/json': 'A JSON-RPC 2.0 response' },
        },
        202: { description: 'A notification or a response, accepted (no body)' },
      },
      errors: [400, 401, 406, 413, 415],
      async handler(ctx, { body, principal }) {
        requireAccept(ctx.get('accept'));
        const server = await createMcpServer(restBackend(rc, principal), {
          version: MCP_SERVER_VERSION,
        });
        // loaded on the first MCP request, as the server (mcp-server.ts)
        const { StreamableHTTPServerTransport } =
          await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        // the transport writes the answer itself; Koa's status then reads the one it wrote
        ctx.respond = false;
        ctx.res.once('close', () => void server.close());
        await transport.handleRequest(ctx.req, ctx.res, body);
      },
    }),
  ];
}
