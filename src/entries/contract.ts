/**
 * `wakitjs/contract`: what an integrator needs to build their own HTTP or queue layer on wakit
 * (the built-in REST plugin imports it, as `import * as contract from 'wakitjs/contract'`): the
 * send and action contract (zod schemas and `prepare*`), the kind constants, the chat-id
 * vocabulary, WhatsApp's limits, `paginate` and the capability names of engine health.
 *
 * Stability: semver (docs/api-surface.md). Removing or renaming a name is a breaking change.
 */
export { ACCOUNT_EVENT_NAMES, CLIENT_EVENT_NAMES } from '../client/client-events.js';
export { GROUP_LIMITS, inviteCodeOf } from '../capabilities/group-schemas.js';
export { REFUSAL_REASONS } from '../engines/ports/groups.js';
export {
  CHAT_KINDS,
  FORWARD_TARGET_KINDS,
  GROUP_KINDS,
  PERSON_KINDS,
  REPLY_KINDS,
  SEND_TARGET_KINDS,
  STATUS_ID,
  chatIdPattern,
  isChannelId,
  isChatId,
  isGroupId,
  isPersonId,
  isStatusId,
  parseChatId,
} from '../client/chat-id.js';
export { ACK, CLIENT_STATES, DISCONNECT_REASONS, MEDIA_KINDS } from '../client/types.js';
export { MESSAGE_KINDS } from '../engines/ports/messages.js';
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
} from '../client/send/send-contract.js';
export { CONVERSATION_KINDS } from '../client/chat-id.js';
export { paginate } from '../client/pagination.js';
export {
  ACTION_KINDS,
  REACTION_EMOJI_PATTERN,
  actionSchemas,
  isReactionEmoji,
  messageIdSchema,
  prepareAction,
} from '../client/send/action-contract.js';
export { EDIT_WINDOW_MS, REVOKE_WINDOW_MS, chatOfMessageId } from '../engines/ports/actions.js';
export { CHAT_STATES } from '../engines/ports/presence.js';
export {
  TYPING_MAX_MS,
  TYPING_MIN_MS,
  TYPING_MS_PER_CHAR,
  typingDelayMs,
} from '../client/send/deliver-action.js';
export { CAPABILITIES } from '../engines/health.js';
export type { ChatKind } from '../client/chat-id.js';
export type { EnqueueOptions } from '../client/bot-client.js';
export type { PreparedSend } from '../client/send/send-contract.js';
