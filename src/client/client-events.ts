import type { WakitError } from '../errors/index.js';
import type { Message } from './inbound/message.js';
import type { TrackedSend } from '../queue/types.js';
import type { GroupJoinEvent, GroupLeaveEvent, GroupUpdateEvent } from '../engines/ports/groups.js';
import type { CallData } from '../engines/ports/calls.js';
import type {
  AckUpdate,
  AuthenticatedSession,
  ClientState,
  DisconnectReason,
  PollVote,
} from './types.js';
import type { EditUpdate, ReactionUpdate, RevokeUpdate } from '../engines/ports/actions.js';
import type { ChatStateUpdate } from '../engines/ports/presence.js';
import type { EngineHealth } from '../engines/health.js';
import { EVENT_NAMES, EXPOSED_EVENT_NAMES } from '../events/event-types.js';
import type { ChatModeChange } from '../handoff/types.js';

/** Events of a client, with their handler arguments. */
export interface ClientEvents {
  qr: [qr: string];
  authenticated: [session: AuthenticatedSession];
  auth_failure: [error: WakitError];
  ready: [];
  disconnected: [reason: DisconnectReason];
  message: [message: Message];
  'message.create': [message: Message];
  'message.ack': [update: AckUpdate];
  /** Someone (or this account, `fromMe`) reacted to a message; `removed` when taken back. */
  'message.reaction': [update: ReactionUpdate];
  /** A message's text was edited by its author (`previousBody` when known). */
  'message.edit': [update: EditUpdate];
  /** A message was deleted for everyone (`by` its author or a group admin). */
  'message.revoke': [update: RevokeUpdate];
  /** Someone else shows "typing…" / "recording…" in a chat, or stopped (engines that report it). */
  'chat.state': [update: ChatStateUpdate];
  /** The remote session is held by another server; the client retries in `retryInMs`. */
  'session.leased': [info: { holder?: unknown; expiresAt?: unknown; retryInMs: number }];
  state: [change: { from: ClientState; to: ClientState; at: string }];
  /** A tracked send changed: queued → sending → sent → delivered → read, or failed (with its code). */
  'message.status': [send: TrackedSend];
  /** People joined a group this account is in (itself included): added, by invite link, ... */
  'group.join': [event: GroupJoinEvent];
  /** People left a group this account is in, or were removed (itself included). */
  'group.leave': [event: GroupLeaveEvent];
  /** A group's subject, description, settings or admins changed. */
  'group.update': [event: GroupUpdateEvent];
  /** Someone calls the account: `{ id, from, video, group, timestamp }` (see `rejectCall`). */
  call: [call: CallData];
  /** Someone voted on a poll (their current choice; none selected = retracted). */
  'poll.vote': [vote: PollVote];
  /** The engine's health changed: another build, or capabilities broken or repaired. */
  'engine.health': [health: EngineHealth];
  /** WhatsApp signalled a restriction: the send governor pauses bulk sends until `until`. */
  'account.restricted': [restriction: AccountRestriction];
  /** The cool-down of a restriction ended: sends go again (docs/safety.md). */
  'account.resumed': [restriction: AccountRestriction];
  /** A chat's mode changed: `bot`, `human` (a person answers) or `closed` (docs/handoff.md). */
  'chat.mode': [change: ChatModeChange];
}

/** A restriction of the account (`account.restricted` / `account.resumed`). */
export interface AccountRestriction {
  client: string;
  /** What WhatsApp signalled (`send-refused`: a send refused with ACCOUNT_RESTRICTED, ...). */
  reason: string;
  since: string;
  until: string;
}

export type ClientEventName = keyof ClientEvents;
/** The events that carry what happens to an account (what REST streams over SSE and webhooks). */
export const ACCOUNT_EVENT_NAMES = EXPOSED_EVENT_NAMES;

/** Every client event (src/events/event-types.ts declares them). */
export const CLIENT_EVENT_NAMES: readonly ClientEventName[] = EVENT_NAMES;
