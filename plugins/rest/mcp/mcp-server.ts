/**
 * wakit's Model Context Protocol server (the official SDK's `Server`): `tools/list` and
 * `tools/call` over the tools of tools.ts, `resources/list`, `resources/templates/list` and
 * `resources/read` over resources.ts, on one backend (a token's view over HTTP, the local user's
 * over stdio). A tool's failure is a tool error result carrying wakit's stable code (never a
 * stack); an unknown tool or resource is a protocol error. The SDK is loaded on first use (it
 * takes ~0.5-2 s to load): the REST server starts without it.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type * as McpTypes from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpBackend } from './mcp-backend.js';
import { parseArgs, toolError, type McpTool, type ToolError } from './mcp-tool.js';
import { RESOURCE_TEMPLATES, listResources, readResource } from './resources.js';
import { MCP_TOOLS } from './tools.js';

type McpSdk = typeof McpTypes & {
  Server: typeof Server;
};
let loading: Promise<McpSdk> | undefined;

/** The SDK's server and protocol schemas, loaded once. */
function mcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, types]) => ({ ...types, Server: server.Server }));
  return loading;
}

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/** The tools as `tools/list` answers them (built once). */
let listed: Tool[] | undefined;

function listing(tool: McpTool): Tool {
  const { $schema: _, ...schema } = z.toJSONSchema(tool.input, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: schema as Tool['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.effect === 'read',
      destructiveHint: tool.effect === 'destructive',
      idempotentHint: tool.idempotent === true,
      // every tool acts on WhatsApp, an open world of people and chats
      openWorldHint: true,
    },
  };
}

/** A result's JSON: structured when it is an object, always as text too. */
function success(result: unknown): CallToolResult {
  const json = JSON.parse(JSON.stringify(result ?? null)) as unknown;
  const structured = json !== null && typeof json === 'object' && !Array.isArray(json);
  return {
    content: [{ type: 'text', text: JSON.stringify(json) }],
    ...(structured ? { structuredContent: json as Record<string, unknown> } : {}),
  };
}

function failure(error: ToolError): CallToolResult {
  const issues = error.issues?.map((i) => `${i.path || '(arguments)'}: ${i.message}`) ?? [];
  return {
    isError: true,
    content: [{ type: 'text', text: [`${error.code}: ${error.message}`, ...issues].join('\n') }],
    structuredContent: { error: { ...error } },
  };
}

export interface McpServerOptions {
  /** The server's version, as `initialize` answers it. */
  version: string;
}

/** A server for one backend; connect it to a transport (stdio, Streamable HTTP). */
export async function createMcpServer(
  backend: McpBackend,
  options: McpServerOptions,
): Promise<Server> {
  const {
    Server,
    CallToolRequestSchema,
    ErrorCode: RpcCode,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ListToolsRequestSchema,
    McpError,
    ReadResourceRequestSchema,
  } = await mcpSdk();
  const server = new Server(
    { name: 'wakit', title: 'wakit (WhatsApp)', version: options.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'WhatsApp through wakit: read chats and messages, send messages (queued, paced, tracked), ' +
        'run conversations. Tools marked destructive remove or overwrite: confirm with the user first.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: (listed ??= [...MCP_TOOLS.values()].map(listing)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = MCP_TOOLS.get(request.params.name);
    if (!tool) throw new McpError(RpcCode.InvalidParams, `Unknown tool ${request.params.name}`);
    try {
      const args = parseArgs(tool.name, tool.input, request.params.arguments);
      return success(await tool.call(backend, args));
    } catch (error) {
      return failure(toolError(error, backend));
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: listResources(backend),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCE_TEMPLATES.map((template) => ({ ...template })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    let contents: unknown;
    try {
      contents = await readResource(backend, uri);
    } catch (error) {
      const coded = toolError(error, backend);
      throw new McpError(RpcCode.InvalidParams, `${coded.code}: ${coded.message}`, coded);
    }
    if (contents === undefined) {
      throw new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}`, { uri });
    }
    return {
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(contents) }],
    };
  });
  return server;
}
