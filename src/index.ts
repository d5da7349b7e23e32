/**
 * wakit — the public API, grouped by audience: building a bot with the SDK, writing plugins,
 * handling errors, and advanced integrations. Anything not exported here is internal.
 */
import 'reflect-metadata';

// ---------------------------------------------------------------------------------------------
// SDK: create an SDK from a configuration, create clients, send and receive.
export { createSdk, Sdk, type PluginsView, type SdkOptions, type StopOptions } from './sdk.js';
// Tests: the bot's own config on the simulator, with no calls out.
export { createTestSdk, testConfig, type TestSdkOptions } from './test-sdk.js';
export type {
  AddClientOptions,
  ClientAdmin,
  ClientListing,
  ClientOrigin,
  RemoveClientOptions,
} from './kernel/client-admin.js';
export {
  MemoryClientRegistry,
  type ClientRecord,
  type ClientRegistry,
} from './kernel/client-registry.js';
export { FileClientRegistry } from './kernel/file-client-registry.js';
export type { EventLoopMonitor, EventLoopStats } from './kernel/event-loop-monitor.js';
export { BotClient, type EnqueueOptions, type QueuedSend } from './client/bot-client.js';
export { allClientsFailed, type AllFailed, type ClientsView } from './client/all-failed.js';
export { Message } from './client/message.js';
export type { ClientEvents, ClientEventName } from './client/client-events.js';
export { ACCOUNT_EVENT_NAMES, CLIENT_EVENT_NAMES } from './client/client-events.js';
export {
  GROUP_LIMITS,
  REFUSAL_REASONS,
  inviteCodeOf,
  type CreatedGroup,
  type GroupChange,
  type GroupInfo,
  type GroupJoinEvent,
  type GroupJoinHow,
  type GroupLeaveEvent,
  type GroupParticipant,
  type GroupPermissionDetails,
  type GroupRole,
  type GroupSettings,
  type GroupUpdateEvent,
  type GroupsApi,
  type ParticipantOutcome,
  type ParticipantResult,
  type RefusalReason,
} from './client/groups-api.js';
export {
  CHAT_KINDS,
  FORWARD_TARGET_KINDS,
  GROUP_KINDS,
  PERSON_KINDS,
  REPLY_KINDS,
  SEND_TARGET_KINDS,
  STATUS_ID,
  chatIdPattern,
  chatKindOf,
  isChannelId,
  isChatId,
  isGroupId,
  isPersonId,
  isStatusId,
  normalizeChatId,
  parseChatId,
  type ChatKind,
  type ParsedChatId,
} from './client/chat-id.js';
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
  type ContactInfo,
  type DisconnectReason,
  type MediaData,
  type MediaKind,
  type MessageData,
  type MessageSender,
  type SendResult,
  type TextOptions,
} from './client/types.js';
// Locations, contact cards, polls and votes (docs/messages.md).
export {
  MESSAGE_KINDS,
  type ContactCard,
  type ContactCardInput,
  type LocationData,
  type MessageKind,
  type PollData,
  type PollVote,
} from './engines/ports/messages.js';
export type { MessagesApi } from './client/messages-api.js';
// The send contract: one schema per kind; input types derived from it.
export {
  SEND_KINDS,
  prepareContent,
  prepareForward,
  prepareSend,
  sendRequestSchema,
  sendSchemas,
  textOptionsSchema,
  replyOptionsSchema,
  locationSchema,
  pollSchema,
  contactCardSchema,
  type MediaContent,
  type PreparedSend,
  type SendAudioInput,
  type SendContent,
  type SendDocumentInput,
  type SendImageInput,
  type SendKind,
  type SendStickerInput,
  type SendLocationInput,
  type SendContactInput,
  type SendPollInput,
  type ReplyOptionsInput,
  type SendTextInput,
  type SendVideoInput,
} from './client/send-contract.js';
// Chats, contacts and calls (reads and immediate actions, not queued).
export {
  CONVERSATION_KINDS,
  type ChatData,
  type ChatPage,
  type ChatsApi,
  type FetchMessagesInput,
  type GetChatsOptions,
  type LastMessageSummary,
} from './client/chats-api.js';
export type { ContactData, ContactsApi } from './client/contacts-api.js';
export type { CallData, CallsApi } from './client/calls-api.js';
export { paginate, type Page, type PageOptions } from './client/pagination.js';
// Message actions and presence (docs/actions.md, docs/presence.md).
export {
  ACTION_KINDS,
  REACTION_EMOJI_PATTERN,
  actionSchemas,
  isReactionEmoji,
  messageIdSchema,
  prepareAction,
  type ActionInput,
  type ActionKind,
} from './client/action-contract.js';
export type { ActionOptions, ActionsApi } from './client/actions-api.js';
export type { PresenceApi } from './client/presence-api.js';
export {
  EDIT_WINDOW_MS,
  REVOKE_WINDOW_MS,
  chatOfMessageId,
  type EditUpdate,
  type ReactionUpdate,
  type RevokeUpdate,
} from './engines/ports/actions.js';
export { CHAT_STATES, type ChatState } from './engines/ports/presence.js';
export {
  TYPING_MAX_MS,
  TYPING_MIN_MS,
  TYPING_MS_PER_CHAR,
  typingDelayMs,
} from './client/deliver-action.js';
export type { SendPriority, TrackedSend, TrackingStatus } from './queue/index.js';
export type { ListPage, ListQuery } from './queue/outbox/index.js';
// Engine health (docs/engines.md): `client.info().health`, `engine.health` events.
export { CAPABILITIES, type Capability, type EngineHealth } from './engines/health.js';

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
// Plugins: definePlugin and what `setup(ctx)` works with.
export { definePlugin, isPlugin } from './plugins/define-plugin.js';
export type {
  CommandContext,
  CommandHandler,
  CommandInfo,
  CommandMeta,
  EventData,
  EventHandler,
  EventObserver,
  HttpMethod,
  Next,
  OnOptions,
  Plugin,
  PluginContext,
  PluginDefinition,
  PluginEvent,
  PluginHttp,
  PluginHttpRequest,
  PluginHttpResponse,
  PluginOptions,
  PluginRoute,
  PluginRouteDefinition,
  PluginRouteRegistry,
  PluginSendOptions,
  ReportWhere,
  SendLookup,
} from './plugins/types.js';
export type { LoadedPluginInfo } from './plugins/plugin-host.js';
export type {
  ClientOwner,
  ClusterView,
  FleetEvent,
  FleetEventStream,
  FleetNode,
} from './cluster/cluster-view.js';
export { compareStreamIds, isStreamId } from './cluster/stream-entries.js';
// zod, re-exported so plugins describe their options with the same instance wakit validates with
export { z } from 'zod';
export { chatIdSchema, regexSourceSchema } from './plugins/schemas.js';
// Media helpers plugins share (MIME types, redacted URLs in logs)
export { guardedLookup, redact } from './client/safe-fetch.js';
export { isPrivateAddress } from './client/ip-policy.js';
export { extensionFor } from './client/mime.js';

// ---------------------------------------------------------------------------------------------
// Errors: one class, stable codes (docs/errors.md), one sink (`sdk.on('error')`).
export {
  ERROR_CODES,
  MAX_ISSUES,
  WakitError,
  capIssues,
  isWakitError,
  issueError,
  toWakitError,
  zodIssues,
  type ErrorCode,
  type ErrorIssue,
} from './errors/index.js';
export type { ErrorSource, WakitErrorEvent } from './kernel/error-sink.js';

// ---------------------------------------------------------------------------------------------
// Advanced: a custom engine through `SdkOptions.engineFactory`.
export type {
  Engine,
  EngineContext,
  EngineEvents,
  EngineFactory,
  EngineIdentity,
} from './engines/engine.js';
export type { EngineContent, MediaFile } from './engines/types.js';
// Advanced: retry delays (capped exponential backoff with jitter), shared with built-in plugins.
export {
  Backoff,
  computeBackoff,
  type BackoffJitter,
  type BackoffPolicy,
} from './kernel/backoff.js';
