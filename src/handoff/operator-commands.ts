/**
 * The operators' commands of handoff: `!bot`, `!human`, `!close` (with the configured prefix),
 * optionally naming another chat (`!bot 15551234567`). Typed by the account itself (from the
 * phone, in the chat it is about) or by a person listed in `handoff.operators`.
 */
import { normalizeChatId, REPLY_KINDS } from '../client/chat-id.js';
import type { MessageSender } from '../client/types.js';
import type { WakitConfig } from '../config/schema.js';
import type { ChatMode } from './types.js';

const MODES: Record<string, ChatMode> = { bot: 'bot', human: 'human', close: 'closed' };

/** An operator's entry as a chat id: a bare number is a phone user. */
function operatorId(entry: string): string {
  if (entry.includes('@')) return entry.trim();
  return `${entry.replace(/\D/g, '')}@c.us`;
}

export class OperatorCommands {
  readonly #prefix: string;
  readonly #operators: ReadonlySet<string>;

  constructor(config: Readonly<WakitConfig>) {
    this.#prefix = config.commands.prefix;
    this.#operators = new Set(config.handoff.operators.map(operatorId));
  }

  /** The mode a text asks for, and the chat it names (if any); undefined when it is none. */
  parse(body: string): { mode: ChatMode; chat?: string } | undefined {
    const text = body.trim();
    if (!text.startsWith(this.#prefix)) return undefined;
    const [name = '', arg, extra] = text.slice(this.#prefix.length).split(/\s+/);
    const mode = MODES[name.toLowerCase()];
    if (!mode || extra !== undefined) return undefined;
    if (arg === undefined) return { mode };
    try {
      return { mode, chat: normalizeChatId(arg, 'chat', { allow: REPLY_KINDS }) };
    } catch {
      // not reported: a word that names no chat makes it no command (an ordinary message)
      return undefined;
    }
  }

  isOperator(sender: Pick<MessageSender, 'id' | 'lid' | 'phone'>): boolean {
    return [sender.id, sender.lid, sender.phone].some(
      (id) => id !== undefined && this.#operators.has(id),
    );
  }
}
