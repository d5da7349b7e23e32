/**
 * What the MCP tools and resources act through: the clients the caller may use, and the services
 * REST uses (conversations, tracked sends). Over HTTP it is the REST server's, with the bearer
 * token's client scopes; `wakit mcp` (stdio) builds one for the local user (plugins/mcp/).
 */
import { WakitError, type BotClient } from '../../../src/index.js';
import type * as http from '../../../src/entries/http.js';
import { canSee, type Principal } from '../middleware/auth.js';
import { ForwardToOwner } from '../middleware/forward.js';
import { resolveClient, visibleClients, type RestContext } from '../context.js';

export interface McpBackend {
  /** The named client, or the default one; FORBIDDEN outside the caller's clients. */
  client(name: string | undefined, options?: { local?: boolean }): BotClient;
  /** The clients the caller may use. */
  visible(): BotClient[];
  /** Whether the caller may use `client`. */
  canSee(client: string): boolean;
  /** Where idempotency keys are unique: per token, as REST's `Idempotency-Key`. */
  readonly idempotencyScope: string;
  readonly conversations: http.PrivilegedServices['conversations'];
  readonly sends: http.PrivilegedServices['sends'];
  readonly chats: http.PrivilegedServices['chats'];
  readonly schedules: http.PrivilegedServices['schedules'];
  /** A failure that is not the caller's (an INTERNAL answer): to the error sink. */
  report(error: unknown): void;
}

/** The backend of one HTTP request: the REST server's services, the token's scopes. */
export function restBackend(rc: RestContext, principal: Principal): McpBackend {
  return {
    client(name, options) {
      try {
        return resolveClient(rc, principal, name, options);
      } catch (error) {
        if (!(error instanceof ForwardToOwner)) throw error;
        // a tool call is not proxied (its session is this node's): the agent asks that node
        throw new WakitError(
          'CLIENT_UNAVAILABLE',
          `Client ${error.client} runs on another node of the fleet: use that node's /api/v1/mcp`,
          { details: { client: error.client } },
        );
      }
    },
    visible: () => visibleClients(rc, principal),
    canSee: (client) => canSee(principal, client),
    idempotencyScope: `token${principal.tokenIndex}`,
    get conversations() {
      return rc.sdk.conversations;
    },
    get sends() {
      return rc.sdk.sends;
    },
    get chats() {
      return rc.sdk.chats;
    },
    get schedules() {
      return rc.sdk.schedules;
    },
    report: (error) => rc.sdk.events.report(error, { source: 'plugin', event: 'mcp' }),
  };
}
