import type { BotClient } from '../client/bot-client.js';
import { WakitError } from '../errors/index.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import { prepareContent } from '../client/send/send-contract.js';
import { pluginEventOf } from './pipeline.js';
import { eventBusView } from '../events/event-bus-view.js';
import { callSafely } from '../kernel/listeners.js';
import { conversationsContext } from '../conversations/plugin-conversations.js';
import { BUNDLED_ROUTE_PREFIX, type RouteRegistry } from './routes.js';
import type { Scheduler } from './scheduler.js';
import type { InboundPath } from './inbound-path.js';
import type { PluginHostDeps } from './plugin-host-deps.js';
import type { Plugin, PluginContext, PluginEvents, PluginHttp } from './types.js';

export interface PluginContextDeps {
  sdk: PluginHostDeps;
  inbound: InboundPath;
  routes: RouteRegistry;
  scheduler: Scheduler;
  /** True while plugins are being set up: routes and commands are added only then. */
  settingUp: () => boolean;
  report: (report: ErrorReport) => void;
}

/**
 * What one plugin's `setup(ctx)` receives (docs/plugins.md): its options, logger, clients, events,
 * handlers and commands on the one inbound path, sends, conversations, close hooks, recurring jobs
 * and HTTP routes. `bundled`: a plugin wakit adds itself (its routes under `/api/v1/<name>`).
 */
export function pluginContext<O>(
  deps: PluginContextDeps,
  plugin: Plugin<O>,
  options: O,
  closeHooks: (() => void | Promise<void>)[],
  bundled: boolean,
): PluginContext<O> {
  const { sdk, inbound, report } = deps;
  const name = plugin.name;
  const log = sdk.logger.child({ plugin: name });
  const duringSetup = (what: string): void => {
    if (!deps.settingUp()) {
      throw new WakitError('INVALID_STATE', `Plugin ${name}: ${what} only during setup`);
    }
  };
  const routes = deps.routes;
  const mount = bundled ? `${BUNDLED_ROUTE_PREFIX}/${name}` : undefined;
  const http: PluginHttp = {
    routes: () => routes.routes(),
    route(definition) {
      duringSetup('add HTTP routes');
      routes.add(name, definition, mount);
    },
  };
  const clients = sdk.clients;
  return {
    options,
    log,
    env: Object.freeze({
      name,
      config: sdk.config,
      baseDir: sdk.baseDir,
      testing: sdk.testing,
      now: () => sdk.clock.now(),
    }),
    clients: Object.freeze({
      list: () => clients.list(),
      get: (clientName: string) => clients.get(clientName),
      onClient: (listener: (client: BotClient) => void) => clients.onClient(listener),
    }),
    events: Object.freeze({
      observe: (event, observer, onOptions) => {
        if (typeof observer !== 'function') {
          throw new WakitError(
            'VALIDATION_FAILED',
            `Plugin ${name}: events.observe(${event}) needs a function`,
          );
        }
        return sdk.events.observe(
          event,
          ({ client, args }) => {
            const observed = pluginEventOf(client, event, args);
            const messageId = (observed as { message?: { id?: string } }).message?.id;
            callSafely(observer, [observed], (error) =>
              report({
                source: 'plugin',
                plugin: name,
                event,
                client: client.name,
                ...(messageId ? { messageId } : {}),
                error,
              }),
            );
          },
          onOptions?.clients,
        );
      },
      report: (error, where = {}) =>
        report({ source: where.source ?? 'plugin', plugin: name, ...where, error }),
      bus: eventBusView(sdk.events),
    } satisfies PluginEvents),
    on: (event, handler, onOptions) => {
      if (typeof handler !== 'function') {
        throw new WakitError(
          'VALIDATION_FAILED',
          `Plugin ${name}: on(${event}) needs a handler function`,
        );
      }
      return inbound.pipeline.add(name, event, handler, onOptions?.clients, {
        allModes: onOptions?.allModes === true,
      });
    },
    command: (commandName, handler, meta) => {
      duringSetup('register commands');
      inbound.commands.register(name, commandName, handler, meta);
    },
    send: async (clientName, chatId, content, sendOptions) => {
      const client = clients.get(clientName);
      const send = prepareContent(chatId, content, sendOptions?.text);
      const queued = await client.enqueue(send, {
        priority: sendOptions?.priority ?? 'normal',
        ...(sendOptions?.idempotencyKey ? { idempotencyKey: sendOptions.idempotencyKey } : {}),
        idempotencyScope: `plugin:${name}`,
      });
      return queued.result;
    },
    conversations: conversationsContext(inbound.conversations, {
      duringSetup,
      command: (commandName, handler, meta) =>
        inbound.commands.register(name, commandName, handler, meta),
    }),
    onClose: (hook) => {
      if (typeof hook !== 'function')
        throw new WakitError('VALIDATION_FAILED', `Plugin ${name}: onClose needs a function`);
      closeHooks.push(hook);
    },
    schedule: (spec, handler, scheduleOptions) =>
      deps.scheduler.add(name, spec, handler, scheduleOptions),
    http,
  };
}
