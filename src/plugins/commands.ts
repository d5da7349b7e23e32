import type { BotClient } from '../client/bot-client.js';
import { PERSON_KINDS, normalizeChatId } from '../client/chat-id.js';
import type { Message } from '../client/inbound/message.js';
import { WakitError } from '../errors/index.js';
import { parseCommand, type ParsedCommand } from './parse-args.js';
import type {
  CommandContext,
  CommandHandler,
  CommandInfo,
  CommandMeta,
  PluginEvent,
} from './types.js';

interface Command {
  info: CommandInfo;
  handler: CommandHandler;
  owners: ReadonlySet<string> | undefined;
  clients: ReadonlySet<string> | undefined;
}

export interface CommandSettings {
  prefix: string;
  unknownReply?: string | undefined;
  /** A command handler not settled after this long is reported (HANDLER_TIMEOUT); 0: never. */
  handlerTimeoutMs?: number;
}

export type CommandFailure = (failure: {
  plugin: string;
  command: string;
  client: string;
  messageId: string;
  error: unknown;
}) => void;

export const DENIED = {
  owners: 'You are not allowed to use this command.',
  groupOnly: 'This command works only in groups.',
  privateOnly: 'This command works only in private chats.',
  adminOnly: 'Only group admins may use this command.',
} as const;

const COMMAND_NAME = /^[^\s]{1,64}$/;
/** Thrown by `#timed` when a command outlives its time limit (reported there). */
const TIMED_OUT = new Error('command timed out');

/** Commands of all plugins: registration, access rules, dispatch and the built-in `help`. */
export class CommandRegistry {
  readonly #byName = new Map<string, Command>();
  readonly #commands: Command[] = [];

  constructor(
    private readonly settings: CommandSettings,
    private readonly onFailure: CommandFailure,
    private readonly log: (message: string, error: unknown) => void,
  ) {
    this.#add('wakit', 'help', (cmd) => this.#help(cmd), {
      description: 'List the commands you may use',
      usage: '[command]',
    });
  }

  get prefix(): string {
    return this.settings.prefix;
  }

  list(): CommandInfo[] {
    return this.#commands.map((c) => c.info);
  }

  register(plugin: string, name: string, handler: CommandHandler, meta: CommandMeta = {}): void {
    if (typeof handler !== 'function') {
      throw new WakitError(
        'VALIDATION_FAILED',
        `Command ${name} of plugin ${plugin} has no handler`,
      );
    }
    const lower = String(name).toLowerCase();
    // a plugin may replace the built-in help
    const builtIn = this.#byName.get(lower);
    if (builtIn?.info.plugin === 'wakit') this.#remove(builtIn);
    this.#add(plugin, name, handler, meta);
  }

  #remove(command: Command): void {
    this.#commands.splice(this.#commands.indexOf(command), 1);
    for (const [key, value] of this.#byName) if (value === command) this.#byName.delete(key);
  }

  #add(plugin: string, name: string, handler: CommandHandler, meta: CommandMeta): void {
    const names = [name, ...(meta.aliases ?? [])].map((n) => String(n).toLowerCase());
    for (const n of names) {
      if (!COMMAND_NAME.test(n)) {
        throw new WakitError(
          'VALIDATION_FAILED',
          `Plugin ${plugin}: command name ${JSON.stringify(n)} is invalid (1-64 characters, no spaces)`,
        );
      }
      const taken = this.#byName.get(n);
      if (taken) {
        throw new WakitError(
          'PLUGIN_DUPLICATE',
          `Plugin ${plugin}: command ${this.prefix}${n} is already registered by plugin ${taken.info.plugin}`,
          {
            details: { command: n, plugin, registeredBy: taken.info.plugin },
          },
        );
      }
    }
    if (meta.groupOnly && meta.privateOnly) {
      throw new WakitError(
        'VALIDATION_FAILED',
        `Plugin ${plugin}: command ${name} cannot be both groupOnly and privateOnly`,
      );
    }
    const owners = meta.owners
      ? new Set(
          meta.owners.map((o, i) => normalizeChatId(o, `owners.${i}`, { allow: PERSON_KINDS })),
        )
      : undefined;
    const { aliases, ...rest } = meta;
    const command: Command = {
      info: Object.freeze({
        ...rest,
        ...(aliases ? { aliases: aliases.map((a) => a.toLowerCase()) } : {}),
        name: names[0],
        plugin,
      }),
      handler,
      owners,
      clients: meta.clients ? new Set(meta.clients) : undefined,
    };
    this.#commands.push(command);
    for (const n of names) this.#byName.set(n, command);
  }

  /** Why `message` may not run `command`, or undefined when it may. */
  async denial(command: Command, message: Message, client: BotClient): Promise<string | undefined> {
    const { info } = command;
    if (command.owners && !isOwner(command.owners, message.sender)) return DENIED.owners;
    if (info.groupOnly && !message.isGroup) return DENIED.groupOnly;
    if (info.privateOnly && message.isGroup) return DENIED.privateOnly;
    if (info.adminOnly) {
      if (!message.isGroup) return DENIED.adminOnly;
      const admin = await client.groups
        .isAdmin(message.chatId, message.sender.id)
        .catch((error: unknown) => {
          this.log('group admin check failed', error);
          return false;
        });
      if (!admin) return DENIED.adminOnly;
    }
    return undefined;
  }

  /** True when `body` names a registered command (with the prefix). */
  isCommand(body: string): boolean {
    const prefix = this.settings.prefix;
    if (!body.trimStart().startsWith(prefix)) return false;
    const parsed = parseCommand(body, prefix);
    return parsed !== undefined && parsed !== null && this.#byName.has(parsed.name);
  }

  /** The middleware at the head of the `message` chain: known commands are handled and consumed. */
  readonly middleware = (
    event: PluginEvent<'message'>,
    next: () => Promise<void>,
  ): Promise<void> => {
    const { message, client } = event;
    const body = message.body;
    if (message.fromMe || message.broadcast || message.isChannel || message.isStatus) return next();
    if (typeof body !== 'string') return next();
    const prefix = this.settings.prefix;
    // fast path: most messages are not commands
    if (!body.startsWith(prefix) && !body.trimStart().startsWith(prefix)) return next();
    const parsed = parseCommand(body, prefix);
    if (!parsed) return next();
    const command = this.#byName.get(parsed.name);
    if (!command || (command.clients && !command.clients.has(client.name))) {
      if (this.settings.unknownReply === undefined) return next();
      return this.#reply(
        message,
        this.settings.unknownReply.replaceAll('{{command}}', parsed.invokedAs),
      );
    }
    return this.#run(command, parsed, message, client);
  };

  async #run(
    command: Command,
    parsed: ParsedCommand,
    message: Message,
    client: BotClient,
  ): Promise<void> {
    const denied = await this.denial(command, message, client);
    if (denied) {
      await this.#reply(message, denied);
      return;
    }
    const context: CommandContext = {
      name: command.info.name,
      invokedAs: parsed.invokedAs,
      args: parsed.args,
      rawArgs: parsed.rawArgs,
      prefix: this.settings.prefix,
      message,
      client,
      reply: (text) => message.reply(text),
    };
    const failure = (error: unknown): void =>
      this.onFailure({
        plugin: command.info.plugin,
        command: command.info.name,
        client: client.name,
        messageId: message.id,
        error,
      });
    const run = Promise.resolve().then(() => command.handler(context));
    try {
      await this.#timed(run);
    } catch (error) {
      if (error === TIMED_OUT) {
        const timeoutMs = this.settings.handlerTimeoutMs;
        failure(
          new WakitError(
            'HANDLER_TIMEOUT',
            `Plugin ${command.info.plugin} did not finish command ${this.prefix}${command.info.name} within ${timeoutMs} ms`,
            { details: { plugin: command.info.plugin, command: command.info.name, timeoutMs } },
          ),
        );
        // a failure after the time limit is still reported
        run.catch(failure);
        return;
      }
      failure(error);
      await this.#reply(message, `Sorry, ${this.settings.prefix}${command.info.name} failed.`);
    }
  }

  /** The handler's promise, or TIMED_OUT after `handlerTimeoutMs` (0: no limit). */
  #timed(run: Promise<unknown>): Promise<unknown> {
    const timeoutMs = this.settings.handlerTimeoutMs ?? 0;
    if (timeoutMs <= 0) return run;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(TIMED_OUT), timeoutMs);
      timer.unref();
    });
    return Promise.race([run, timeout]).finally(() => clearTimeout(timer));
  }

  async #reply(message: Message, text: string): Promise<void> {
    try {
      await message.reply(text);
    } catch (error) {
      this.log('command reply failed', error);
    }
  }

  async #help(cmd: CommandContext): Promise<void> {
    const p = this.settings.prefix;
    const line = (info: CommandInfo): string =>
      `${p}${info.name}${info.usage ? ` ${info.usage}` : ''}${info.description ? ` — ${info.description}` : ''}`;
    const usable: Command[] = [];
    for (const command of this.#commands) {
      if (command.info.hidden) continue;
      if (command.clients && !command.clients.has(cmd.client.name)) continue;
      if ((await this.denial(command, cmd.message, cmd.client)) === undefined) usable.push(command);
    }
    const wanted = cmd.args[0]?.toLowerCase().replace(p, '');
    if (wanted) {
      const found = usable.find((c) => c.info.name === wanted || c.info.aliases?.includes(wanted));
      if (!found) {
        await cmd.reply(`No command ${p}${wanted}. Send ${p}help for the list.`);
        return;
      }
      const aliases = found.info.aliases?.length
        ? `\nAliases: ${found.info.aliases.map((a) => p + a).join(', ')}`
        : '';
      await cmd.reply(`${line(found.info)}${aliases}`);
      return;
    }
    await cmd.reply(['Commands:', ...usable.map((c) => line(c.info))].join('\n'));
  }
}

/** An owner is a person: matched by the id the message came with, its phone or its LID. */
function isOwner(owners: ReadonlySet<string>, sender: Message['sender']): boolean {
  return (
    owners.has(sender.id) ||
    (sender.phone !== undefined && owners.has(sender.phone)) ||
    (sender.lid !== undefined && owners.has(sender.lid))
  );
}
