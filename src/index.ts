/**
 * wakit: the root entry (`wakitjs`), what most bots and plugins need, grouped by audience: bot
 * authors, plugin authors, errors; no namespaces (`z` aside). Everything else public is in a subpath entry of its audience
 * (`wakitjs/types`, `wakitjs/contract`, `wakitjs/http`, …: docs/api-surface.md); anything no entry
 * exports is internal.
 */
import 'reflect-metadata';

// ---------------------------------------------------------------------------------------------
// Bot authors: create an SDK from a configuration, create clients, send and receive, test.
export { createSdk, Sdk, type SdkOptions } from './sdk.js';
export { createTestSdk } from './test-sdk.js';
export { BotClient } from './client/bot-client.js';
export { Message } from './client/inbound/message.js';
export type { ClientEvents, ClientEventName } from './client/client-events.js';
export { chatKindOf, normalizeChatId } from './client/chat-id.js';
export type { ClientInfo, ClientState, MessageData, SendResult } from './client/types.js';
export type { SendContent } from './client/send/send-contract.js';
export type { TrackedSend } from './queue/index.js';
export type { WakitConfig, WakitConfigInput } from './config/index.js';

// ---------------------------------------------------------------------------------------------
// Plugin authors: definePlugin and what `setup(ctx)` works with.
export { definePlugin } from './plugins/define-plugin.js';
export type {
  CommandContext,
  CommandMeta,
  EventHandler,
  Next,
  Plugin,
  PluginContext,
  PluginEvent,
  PluginRouteDefinition,
} from './plugins/types.js';
export { defineConversation } from './conversations/define-conversation.js';
export type { Conversation } from './conversations/types.js';
// zod, re-exported so plugins describe their options with the same instance wakit validates with
export { z } from 'zod';
export { chatIdSchema, regexSourceSchema } from './plugins/schemas.js';
export { extensionFor } from './client/media/mime.js';
// Plugins that serve HTTP or build on the send contract import `wakitjs/http` and
// `wakitjs/contract` (the built-in plugins too): the root has no namespaces but `z`.

// ---------------------------------------------------------------------------------------------
// Errors: one class, stable codes (docs/errors.md), one sink (`sdk.on('error')`).
export {
  ERROR_CODES,
  WakitError,
  isWakitError,
  toWakitError,
  type ErrorCode,
} from './errors/index.js';
export type { ErrorSource, WakitErrorEvent } from './kernel/error-sink.js';
