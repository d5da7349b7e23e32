/**
 * MCP resources: the caller's clients, a client's chats (most recent first) and a chat's recent
 * messages, read through the SDK methods REST uses (`client.chats.list`, `client.chats.messages`;
 * READY needed, CLIENT_NOT_READY otherwise), within the caller's client scopes.
 */
import type { BotClient } from '../../../src/index.js';
import type { McpBackend } from './mcp-backend.js';

/** Chats a `chats` resource shows, and messages a `messages` one. */
export const RESOURCE_CHATS = 50;
export const RESOURCE_MESSAGES = 20;

export const CLIENTS_URI = 'wakit://clients';
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'wakit://clients/{client}/chats',
    name: 'chats',
    title: "A client's chats",
    description: `The ${RESOURCE_CHATS} chats with the most recent activity: name, unread count, last message`,
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'wakit://clients/{client}/chats/{chatId}/messages',
    name: 'messages',
    title: "A chat's recent messages",
    description: `The ${RESOURCE_MESSAGES} most recent messages of a chat, newest first`,
    mimeType: 'application/json',
  },
] as const;

/** What `resources/list` shows: the clients, and the chats of each client the caller may use. */
export function listResources(backend: McpBackend) {
  return [
    {
      uri: CLIENTS_URI,
      name: 'clients',
      title: 'WhatsApp clients',
      description: 'The clients (accounts) this caller may use, with their state',
      mimeType: 'application/json',
    },
    ...backend.visible().map((client) => ({
      uri: `wakit://clients/${client.name}/chats`,
      name: `${client.name} chats`,
      title: `Chats of ${client.name}`,
      mimeType: 'application/json',
    })),
  ];
}

const CHATS = /^wakit:\/\/clients\/([A-Za-z0-9_-]{1,64})\/chats$/;
const MESSAGES = /^wakit:\/\/clients\/([A-Za-z0-9_-]{1,64})\/chats\/([^/]{1,256})\/messages$/;

/** The contents of a resource; undefined when no resource has this URI. */
export async function readResource(backend: McpBackend, uri: string): Promise<unknown> {
  if (uri === CLIENTS_URI) {
    return {
      clients: backend.visible().map((client: BotClient) => {
        const { name, state, me } = client.info();
        return { name, state, ...(me ? { me: me.id } : {}) };
      }),
    };
  }
  const chats = CHATS.exec(uri);
  if (chats) return backend.client(chats[1]).chats.list({ limit: RESOURCE_CHATS });
  const messages = MESSAGES.exec(uri);
  if (messages) {
    const chatId = decodeURIComponent(messages[2] ?? '');
    const items = await backend
      .client(messages[1])
      .chats.messages(chatId, { limit: RESOURCE_MESSAGES });
    return { chatId, items };
  }
  return undefined;
}
