import type { BotClient } from '../client/bot-client.js';
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import type { LoadedPluginInfo, PluginHost } from './plugin-host.js';
import type { CommandInfo, PluginSchedules } from './types.js';

/** `sdk.plugins`: what is set up, and a way to replay an event through the plugins. */
export interface PluginsView extends PluginSchedules {
  /** The plugins set up so far, in setup order. */
  list(): LoadedPluginInfo[];
  /** The commands plugins registered. */
  commands(): CommandInfo[];
  /**
   * Runs one event through the plugin pipeline as if `client` had emitted it (tests, replays).
   * Resolves when every handler finished; never rejects (failures go to `sdk.on('error')`).
   */
  dispatch<E extends ClientEventName>(
    client: BotClient,
    event: E,
    ...args: ClientEvents[E]
  ): Promise<void>;
  /** Resolves once every chat's messages in flight were handled (tests). */
  idle(): Promise<void>;
}

/** `sdk.plugins` over the host: a view of plain functions (nothing of the host itself leaks). */
export function pluginsView(host: PluginHost): PluginsView {
  return {
    list: () => host.list(),
    commands: () => host.commands(),
    dispatch: (client, event, ...args) => host.dispatch(client, event, ...args),
    idle: () => host.idle(),
    schedules: () => host.scheduler.list(),
  };
}
