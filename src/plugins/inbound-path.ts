import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import { toWakitError } from '../errors/index.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import { CommandRegistry } from './commands.js';
import { EventPipeline } from './pipeline.js';
import { ConversationService } from '../conversations/conversation-service.js';
import { TurnWindow } from '../conversations/turn-window.js';
import { HandoffService } from '../handoff/handoff-service.js';
import { floodMiddleware } from './flood-gate.js';
import type { PluginHostDeps } from './plugin-host-deps.js';
import type { TurnOption } from '../conversations/turn-option.js';

export interface InboundPathDeps {
  sdk: PluginHostDeps;
  log: Logger;
  report: (report: ErrorReport) => void;
  /** The `turns` options of the plugins set up so far (docs/turns.md). */
  pluginTurns: () => TurnOption[];
}

/**
 * The one inbound path (docs/plugins.md): a client's messages and votes, through the chat-mode
 * gate (handoff), then in its chat's lane through flood control, the turn window, conversations,
 * commands and the plugins' handlers, in this order.
 */
export class InboundPath {
  readonly pipeline: EventPipeline;
  readonly commands: CommandRegistry;
  readonly conversations: ConversationService;
  readonly handoff: HandoffService;
  readonly #turns: TurnWindow;
  readonly #report: (report: ErrorReport) => void;

  constructor({ sdk, log, report, pluginTurns }: InboundPathDeps) {
    this.#report = report;
    const handlerTimeoutMs = sdk.config.watchdog.handlerTimeoutMs;
    this.pipeline = new EventPipeline(
      ({ plugin, event, client, messageId, error }) =>
        report({
          source: 'plugin',
          plugin,
          event,
          client,
          ...(messageId ? { messageId } : {}),
          error,
        }),
      {
        handlerTimeoutMs,
        concurrency: sdk.config.conversations.concurrency,
        gate: (client, chatId, message) => this.handoff.open(client, chatId, message),
      },
    );
    this.commands = new CommandRegistry(
      {
        prefix: sdk.config.commands.prefix,
        unknownReply: sdk.config.commands.unknownReply,
        handlerTimeoutMs,
      },
      ({ plugin, command, client, messageId, error }) =>
        report({
          source: 'command',
          plugin,
          event: `command:${command}`,
          client,
          messageId,
          error,
        }),
      (message, error) => log.warn({ err: toWakitError(error) }, message),
    );
    this.conversations = new ConversationService({
      config: sdk.config,
      baseDir: sdk.baseDir,
      clock: sdk.clock,
      logger: sdk.logger,
      clients: sdk.clients,
      sentMessageId: async (trackingId) =>
        (await sdk.services.sends.get(trackingId))?.messageId ?? null,
      report,
      isCommand: (body) => this.commands.isCommand(body),
      held: (client, chatId) => this.handoff.held(client, chatId),
    });
    this.handoff = new HandoffService({ ...sdk, conversations: this.conversations, report });
    this.#turns = new TurnWindow({
      conversations: this.conversations,
      pipeline: this.pipeline,
      clock: sdk.clock,
      configured: sdk.config.conversations.turns,
      plugins: pluginTurns,
      report,
    });
    const own = { ownTimeout: true };
    // flood control before everything: a throttled person's message reaches no handler
    this.pipeline.add('wakit', 'message', floodMiddleware(sdk.config.flood, sdk.clock, report));
    // a burst is one turn (off by default): the turn, not each message, goes down the chain
    this.pipeline.add('wakit', 'message', this.#turns.middleware, undefined, own);
    // conversations first: an answer to a question is not a command, a cancel word not a message
    this.pipeline.add('wakit', 'message', this.conversations.middleware, undefined, own);
    this.pipeline.add('wakit', 'message', this.commands.middleware, undefined, own);
    this.pipeline.add('wakit', 'poll.vote', this.conversations.voteMiddleware, undefined, own);
  }

  /** Reads what the stores keep (conversations' timers, chat modes' deadlines). */
  async load(): Promise<void> {
    await this.conversations.load();
    await this.handoff.load();
  }

  /** Feeds a client's events down the path. */
  watch(client: BotClient): void {
    this.pipeline.attachClient(client);
    this.conversations.watch(client);
    this.#turns.watch(client);
    this.handoff.watch(client);
  }

  dispatch<E extends ClientEventName>(
    client: BotClient,
    event: E,
    args: ClientEvents[E],
  ): Promise<void> {
    return this.pipeline.dispatch(client, event, args);
  }

  /** Stops feeding events and closes the stores. Never throws. */
  async close(): Promise<void> {
    this.pipeline.detachAll();
    this.#turns.close();
    this.handoff.close();
    await this.conversations
      .close()
      .catch((error: unknown) => this.#report({ source: 'conversation', event: 'close', error }));
  }
}
