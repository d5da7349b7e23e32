/**
 * `wakitjs/types`: the data vocabulary, type-only (no runtime code): messages, chats, groups,
 * contacts, calls, actions, presence, send inputs, tracked sends, pages, the client's area APIs,
 * client administration and the plugin API's helper types. For writing types down; the values
 * that go with them are in `wakitjs` and `wakitjs/contract`.
 *
 * Stability: semver (docs/api-surface.md). Removing or renaming a name is a breaking change.
 */
export type { PluginsView, SdkChats, SdkConversations, StopOptions } from '../sdk.js';
export type { ChatMode, ChatModeChange, ChatModeInfo, ChatModeSource } from '../handoff/types.js';
export type {
  ChooseOptions,
  ConversationDefinition,
  ConversationInfo,
  ConversationState,
  ConversationTimeout,
  ConversationTrigger,
  EndReason,
  MediaKind as PromptMediaKind,
  PromptOptions,
  Reply,
  SayOptions,
  TextPromptOptions,
} from '../conversations/types.js';
export type { ChatRef, PluginConversations } from '../conversations/plugin-conversations.js';
export type { ChatStateHandle } from '../conversations/chat-state.js';
export type {
  AddClientOptions,
  ClientAdmin,
  ClientListing,
  ClientOrigin,
  RemoveClientOptions,
} from '../kernel/client-admin.js';
export type { EnqueueOptions, QueuedSend } from '../client/bot-client.js';
export type {
  CreatedGroup,
  GroupChange,
  GroupInfo,
  GroupJoinEvent,
  GroupJoinHow,
  GroupLeaveEvent,
  GroupParticipant,
  GroupPermissionDetails,
  GroupRole,
  GroupSettings,
  GroupUpdateEvent,
  ParticipantOutcome,
  ParticipantResult,
  RefusalReason,
} from '../engines/ports/groups.js';
export type { ChatKind, ParsedChatId } from '../client/chat-id.js';
export type {
  Ack,
  AckUpdate,
  AuthenticatedSession,
  ContactInfo,
  DisconnectReason,
  MediaData,
  MediaKind,
  MessageSender,
  TextOptions,
} from '../client/types.js';
export type {
  ContactCard,
  ContactCardInput,
  LocationData,
  MessageKind,
  PollData,
  PollVote,
} from '../engines/ports/messages.js';
export type {
  MediaContent,
  PreparedSend,
  SendAudioInput,
  SendDocumentInput,
  SendImageInput,
  SendKind,
  SendStickerInput,
  SendLocationInput,
  SendContactInput,
  SendPollInput,
  ReplyOptionsInput,
  SendTextInput,
  SendVideoInput,
} from '../client/send/send-contract.js';
export type {
  ActionOptions,
  ActionsApi,
  CallData,
  CallsApi,
  ChatData,
  ChatPage,
  ChatsApi,
  ContactData,
  ContactsApi,
  FetchMessagesInput,
  GetChatsOptions,
  LastMessageSummary,
  PresenceApi,
} from '../client/areas.js';
export type { Page, PageOptions } from '../client/pagination.js';
export type { ActionInput, ActionKind } from '../client/send/action-contract.js';
export type { EditUpdate, ReactionUpdate, RevokeUpdate } from '../engines/ports/actions.js';
export type { ChatState, ChatStateUpdate } from '../engines/ports/presence.js';
export type { TurnOption } from '../conversations/turn-option.js';
export type { SendPriority, TrackingStatus } from '../queue/index.js';
export type { ListPage, ListQuery } from '../queue/outbox/index.js';
export type {
  CommandHandler,
  CommandInfo,
  EventData,
  EventLoopView,
  EventObserver,
  LifecycleView,
  OnOptions,
  PluginClients,
  PluginDefinition,
  PluginEnv,
  PluginEvents,
  PluginOptions,
  PluginSendOptions,
  PrivilegeName,
  PrivilegedServices,
  ReportWhere,
  CatchUp,
  PluginSchedules,
  ScheduleHandler,
  ScheduleInfo,
  ScheduleOptions,
  ScheduleRun,
  ScheduleView,
} from '../plugins/types.js';
export type { LoadedPluginInfo } from '../plugins/plugin-host.js';
export type {
  MetricDefinition,
  MetricFamily,
  MetricSample,
  PluginCounter,
  PluginHistogram,
  PluginMetrics,
} from '../plugins/plugin-metrics.js';
