/** Commands: what `ctx.command(name, handler, meta)` takes and what a handler receives. */
import type { BotClient } from '../client/bot-client.js';
import type { Message } from '../client/inbound/message.js';
import type { SendResult } from '../client/types.js';

export interface CommandMeta {
  description?: string;
  /** Argument synopsis shown by `help`, e.g. `<text> [times]`. */
  usage?: string;
  /** Other names; matched case-insensitively like the name. */
  aliases?: readonly string[];
  /** Only in group chats. */
  groupOnly?: boolean;
  /** Only in private chats. */
  privateOnly?: boolean;
  /** Only group admins (implies a group chat). */
  adminOnly?: boolean;
  /** Only these senders (chat ids or phone numbers). */
  owners?: readonly string[];
  /** Only on these clients (names). */
  clients?: readonly string[];
  /** Hide from `help` (the command still works). */
  hidden?: boolean;
}

/** What a command handler receives. */
export interface CommandContext {
  /** The command's registered name (lower case), whatever alias was typed. */
  readonly name: string;
  /** The name as typed (an alias, any case). */
  readonly invokedAs: string;
  /** Arguments: whitespace separated, "double", 'single' or “smart” quotes group words. */
  readonly args: readonly string[];
  /** Everything after the command name, untouched (trimmed). */
  readonly rawArgs: string;
  readonly prefix: string;
  readonly message: Message;
  readonly client: BotClient;
  /** Replies in the chat, quoting the command (queue priority `reply`). */
  reply(text: string): Promise<SendResult>;
}

export type CommandHandler = (command: CommandContext) => unknown;

/** A registered command, as `help` and introspection see it. */
export interface CommandInfo extends CommandMeta {
  readonly name: string;
  readonly plugin: string;
}
