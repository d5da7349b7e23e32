/** The simulator engine: an in-process virtual WhatsApp network behind the Engine port. */
export { SimulatorNetwork, type SimulatorNetworkOptions } from './network.js';
export { SIM_REGISTRY_LIMIT } from './message-registry.js';
export { SimulatorEngine } from './engine.js';
export { SIM_INBOX_LIMIT } from './account.js';
export { derivePhone } from './ids.js';
export { SIM_CHAT_HISTORY_LIMIT, type SimChatState } from './chats.js';
export type { SimCall, SimCallState } from './calls.js';
export type { SimPictureVisibility } from './contacts.js';
export type { SimActionEvent, SimPhoneActions } from './action-types.js';
export type {
  SimChannel,
  SimChannelSpec,
  SimGroup,
  SimGroupAddPrivacy,
  SimGroupEvent,
  SimGroupSpec,
  SimInboxMessage,
  SimKindContent,
  SimMediaContent,
  SimPhone,
  SimulatorEngineConfig,
} from './types.js';
export {
  RestrictionModel,
  DEFAULT_RESTRICTION,
  type RestrictionThresholds,
} from './restriction-model.js';
