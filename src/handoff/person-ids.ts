/**
 * The key of a person's chat for modes, on any node of a fleet. Modes are keyed as the person's
 * messages are (`chatOf`: the LID when known, else the `@c.us` id). Only the node that runs the
 * client can look a person up; so when it does and learns both ids, it keeps the pointer phone →
 * LID in the shared store, and a node without the client (an operator's read or switch by phone
 * number there) finds the same key through it.
 */
import type { BotClient } from '../client/bot-client.js';
import type { ConversationStore } from '../conversations/store/conversation-store.js';

/** Apart from the modes' own prefix (`~mode\n`): a listing of modes never sees a pointer. */
const PREFIX = '~modeid\n';

const pointerKey = (client: string, phoneId: string): string => `${PREFIX}${client}\n${phoneId}`;

export class PersonIds {
  /** Pointers this process wrote or read already (client, phone id → LID). */
  readonly #known = new Map<string, string>();

  constructor(private readonly storeOf: () => ConversationStore) {}

  /** The mode key of `chatId` (normalized: `@c.us`, `@lid`, a group) for `client`. */
  async key(client: BotClient, chatId: string): Promise<string> {
    if (!chatId.endsWith('@c.us') && !chatId.endsWith('@lid')) return chatId;
    const known = await client.resolveContact(chatId).catch(() => {
      // not reported: a client not running here (another node's) or a person it cannot look up
      return undefined;
    });
    if (known?.lid) {
      if (known.phone) await this.#remember(client.name, known.phone, known.lid);
      return known.lid;
    }
    if (chatId.endsWith('@c.us')) {
      const lid = await this.#pointer(client.name, chatId);
      if (lid) return lid;
    }
    return known?.phone ?? chatId;
  }

  async #remember(client: string, phone: string, lid: string): Promise<void> {
    const phoneId = phone.includes('@') ? phone : `${phone}@c.us`;
    const key = pointerKey(client, phoneId);
    if (this.#known.get(key) === lid) return;
    const store = this.storeOf();
    const record = await store.getState(key);
    if ((record?.value as { lid?: string } | undefined)?.lid !== lid) {
      // a lost race is another node writing the same pointer: nothing to retry
      await store.putState(key, { lid }, record?.version ?? 0);
    }
    this.#known.set(key, lid);
  }

  async #pointer(client: string, phoneId: string): Promise<string | undefined> {
    const key = pointerKey(client, phoneId);
    const cached = this.#known.get(key);
    if (cached) return cached;
    const lid = ((await this.storeOf().getState(key))?.value as { lid?: string } | undefined)?.lid;
    if (lid) this.#known.set(key, lid);
    return lid;
  }
}
