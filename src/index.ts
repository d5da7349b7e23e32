/**
 * wakit — the public API. Everything a bot, a plugin or an integration may use is exported here;
 * anything else is internal.
 */
import 'reflect-metadata';

// SDK
export { createSdk, Sdk, type SdkOptions, type StopOptions } from './sdk.js';
export type { EventLoopMonitor, EventLoopStats } from './kernel/event-loop-monitor.js';
export { BotClient, type QueuedSend } from './client/bot-client.js';
export { Message } from './client/message.js';
export type { ClientEvents, ClientEventName } from './client/client-events.js';
export { ACCOUNT_EVENT_NAMES, CLIENT_EVENT_NAMES } from './client/client-events.js';
export { normalizeChatId, isChatId, isGroupId } from './client/chat-id.js';
export {
  ACK,
  CLIENT_STATES,
  DISCONNECT_REASONS,
  MEDIA_KINDS,
  type Ack,
  type AckUpdate,
  type AuthenticatedSession,
  type ClientInfo,
  type ClientState,
  type DisconnectReason,
  type MediaData,
  type MediaKind,
  type MediaSource,
  type MessageData,
  type SendAudioInput,
  type SendDocumentInput,
  type SendImageInput,
  type SendResult,
  type SendStickerInput,
  type SendTextInput,
  type SendVideoInput,
  type TextOptions,
} from './client/types.js';

// Configuration
export {
  clientNameSchema,
  configSchema,
  configJsonSchema,
  loadConfigFile,
  parseConfig,
  substituteEnv,
  type LoadedConfig,
  type WakitConfig,
  type WakitConfigInput,
} from './config/index.js';

// Errors
export {
  ERROR_CODES,
  WakitError,
  isWakitError,
  toWakitError,
  type ErrorCode,
  type ErrorIssue,
} from './errors/index.js';

// Outbound queue
export type { SendPriority, TrackedSend, TrackingStatus } from './queue/index.js';

// Engines (advanced: a custom engine through SdkOptions.engineFactory)
export type {
  Engine,
  EngineContext,
  EngineEvents,
  EngineFactory,
  EngineIdentity,
} from './engines/engine.js';

// Simulator
export { SimulatorNetwork } from './engines/simulator/index.js';

// Media helpers shared with plugins (guarded downloads, MIME types)
export { safeFetch, redact, type SafeFetchOptions } from './client/safe-fetch.js';
export { isPrivateAddress } from './client/ip-policy.js';
export { extensionFor, mimeFromFilename } from './client/mime.js';

// Plugins
export { definePlugin, isPlugin } from './plugins/define-plugin.js';
export type {
  CommandContext,
  CommandHandler,
  CommandInfo,
  CommandMeta,
  EventData,
  EventHandler,
  HttpMethod,
  MediaContent,
  Next,
  OnOptions,
  Plugin,
  PluginContext,
  PluginDefinition,
  PluginErrorEvent,
  PluginEvent,
  PluginHttp,
  PluginHttpRequest,
  PluginHttpResponse,
  PluginOptions,
  PluginRoute,
  PluginRouteDefinition,
  PluginRouteRegistry,
  PluginSendOptions,
  RouteMatch,
  SendContent,
} from './plugins/types.js';
export {
  PluginHost,
  type LoadedPluginInfo,
  type PluginHostOptions,
} from './plugins/plugin-host.js';
export { parseArgs, parseCommand, type ParsedCommand } from './plugins/parse-args.js';
export { PLUGIN_ROUTE_PREFIX } from './plugins/routes.js';
export { BUILT_IN_PLUGINS } from './plugins/loader.js';

// zod, re-exported so plugins describe their options with the same instance wakit validates with
export { z } from 'zod';
export { chatIdSchema, regexSourceSchema } from './plugins/schemas.js';
