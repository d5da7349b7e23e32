/**
 * The MCP server over stdio, for a desktop agent (Claude Desktop, any MCP client that starts a
 * command): `wakit mcp` runs the bot from bot.config.json as `wakit start` does and adds this
 * plugin, which speaks MCP on the streams it is given (stdin, and the process's real stdout; every
 * log goes to stderr). The tools and resources are those of `POST /api/v1/mcp`
 * (plugins/rest/mcp/), with every client of the bot: the local user is the operator.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WakitError, definePlugin, type BotClient, type PluginContext } from '../../src/index.js';
import type { McpBackend } from '../rest/mcp/mcp-backend.js';
import { MCP_SERVER_VERSION } from '../rest/mcp/mcp-route.js';
import { createMcpServer } from '../rest/mcp/mcp-server.js';

export interface StdioMcpOptions {
  /** Where requests come from (process.stdin). */
  input: Readable;
  /** Where answers go: the process's stdout, nothing else writes there. */
  output: Writable;
  /** The client of tools called without `client` (default: the first configured client). */
  defaultClient?: string;
}

type Services = Pick<McpBackend, 'conversations' | 'sends' | 'chats' | 'schedules'>;

/** The local user's backend: every client, the default one as `wakit mcp --client` names it. */
function localBackend(
  ctx: Pick<PluginContext, 'clients' | 'env' | 'events'>,
  services: Services,
  defaultClient: string | undefined,
): McpBackend {
  return {
    client(name): BotClient {
      const target =
        name ?? defaultClient ?? ctx.env.config.clients[0] ?? ctx.clients.list()[0]?.name;
      if (target === undefined) throw new WakitError('CLIENT_NOT_FOUND', 'No client is configured');
      return ctx.clients.get(target);
    },
    visible: () => [...ctx.clients.list()],
    canSee: () => true,
    idempotencyScope: 'mcp-stdio',
    get conversations() {
      return services.conversations;
    },
    get sends() {
      return services.sends;
    },
    get chats() {
      return services.chats;
    },
    get schedules() {
      return services.schedules;
    },
    report: (error) => ctx.events.report(error, { source: 'plugin', event: 'mcp' }),
  };
}

/** The `mcp` plugin on these streams (what `wakit mcp` uses). */
export function stdioMcpPlugin(options: StdioMcpOptions) {
  return definePlugin({
    name: 'mcp',
    version: MCP_SERVER_VERSION,
    privileges: ['sends', 'conversations', 'chats', 'schedules'],
    async setup(ctx, services) {
      const server = await createMcpServer(localBackend(ctx, services, options.defaultClient), {
        version: MCP_SERVER_VERSION,
      });
      await server.connect(new StdioServerTransport(options.input, options.output));
      ctx.log.info('MCP server on stdio');
      ctx.onClose(() => server.close());
    },
  });
}
