import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { ErrorSink } from '../kernel/error-sink.js';
import type { EventBus } from '../events/event-bus.js';
import type { Clock } from '../kernel/clock.js';
import type { ScheduleStore } from './schedule-types.js';
import type { PluginClients, PluginEnv, PrivilegedServices } from './types.js';

/** What the plugin host needs of the SDK (the SDK implements it; plugins never see it whole). */
export interface PluginHostDeps extends Omit<PluginEnv, 'name' | 'now'> {
  readonly clients: PluginClients;
  /** The core event bus (src/events/). */
  readonly events: EventBus<BotClient>;
  /** Read when a plugin that declared a service reads it (a getter may supply it late). */
  readonly services: PrivilegedServices;
  readonly logger: Logger;
  readonly errors: ErrorSink;
  /** The kernel's clock (conversation timers, recurring jobs). */
  readonly clock: Clock;
  /** Where recurring jobs claim their firings (a fleet's store arrives with its code). */
  readonly schedules: () => ScheduleStore | Promise<ScheduleStore>;
}
