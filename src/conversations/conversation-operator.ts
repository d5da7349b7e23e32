/**
 * The operator's side of conversations (SDK and REST): start one in a chat (a bot that writes
 * first), list, inspect and end active ones.
 */
import type { BotClient } from '../client/bot-client.js';
import type { SendContent } from '../client/send/send-contract.js';
import { WakitError } from '../errors/index.js';
import type { RunHost } from './conversation-run.js';
import type { ConversationRuns } from './conversation-runs.js';
import { info, notFound } from './conversation-records.js';
import { personChat } from './person-key.js';
import type { ConversationRecord, ConversationStore } from './store/conversation-store.js';
import type { ConversationInfo } from './types.js';

export interface OperatorParts {
  store(): ConversationStore;
  runs: ConversationRuns;
  host: RunHost;
  clients: { get(name: string): BotClient };
}

export class ConversationOperator {
  readonly #p: OperatorParts;

  constructor(parts: OperatorParts) {
    this.#p = parts;
  }

  /**
   * Starts `name` in a chat from code or REST (a bot that writes first): CONVERSATION_ACTIVE when
   * the chat has one already (unless it lets itself be replaced).
   */
  async start(
    clientName: string,
    chatId: string,
    name: string,
    options: { input?: unknown; member?: string } = {},
  ): Promise<ConversationInfo> {
    const runs = this.#p.runs;
    const definition = runs.definition(name);
    chatId = await this.personChat(clientName, chatId);
    const member = options.member ?? '';
    let started: ConversationRecord | undefined;
    // the lane does not pass failures on (it serves messages): this one goes to the caller
    let refused: WakitError | undefined;
    await runs.exclusive(clientName, chatId, member, async () => {
      const active = await runs.live(clientName, chatId, member);
      if (active && runs.policy(active).onConflict !== 'replace') {
        refused = new WakitError(
          'CONVERSATION_ACTIVE',
          `Chat ${chatId} already has conversation ${active.record.name} (${active.record.id})`,
          {
            details: {
              client: clientName,
              chatId,
              conversation: active.record.id,
              name: active.record.name,
            },
          },
        );
        return true;
      }
      started = await runs.begin(clientName, chatId, member, definition, options.input ?? null);
      return true;
    });
    if (refused !== undefined) throw refused;
    return info(started as ConversationRecord);
  }

  /** The chat as conversations and chat state key it: a person by phone or LID alike. */
  personChat(clientName: string, chatId: string): Promise<string> {
    return personChat(this.#p.clients.get(clientName), chatId);
  }

  async list(client?: string): Promise<ConversationInfo[]> {
    return (await this.#p.store().list(client)).map(info);
  }

  async get(id: string): Promise<ConversationInfo> {
    const record = await this.#p.store().get(id);
    if (!record) throw notFound(id);
    return info(record);
  }

  /** Ends an active conversation (an operator's hand), optionally with a last message. */
  async end(id: string, message?: SendContent): Promise<void> {
    const record = await this.#p.store().get(id);
    if (!record) throw notFound(id);
    await this.#p.runs.exclusive(record.client, record.chatId, record.member, async () => {
      if (message !== undefined) await this.#p.host.send(record, `${id}:operator-end`, message);
      await this.#p.runs.finishRecord(record, 'ended');
      return true;
    });
  }
}
