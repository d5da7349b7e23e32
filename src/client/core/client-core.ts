import type { Logger } from 'pino';
import type { WakitConfig } from '../../config/schema.js';
import type { Engine } from '../../engines/engine.js';
import type { ClientEvents } from '../client-events.js';
import type { SafeEmitter } from './safe-emitter.js';
import type { AcceptOptions, QueuedSend } from '../send/send-intake.js';
import type { ClientState, OutgoingContent } from '../types.js';

/**
 * What the parts of a client share with the client: the area managers built from the capability
 * declarations (`client.chats`, `client.groups`, …: src/capabilities/), the received messages'
 * actions and the incoming-call handler take this core, not the whole `BotClient`.
 */
export interface ClientCore {
  readonly name: string;
  readonly config: Readonly<WakitConfig>;
  readonly log: Logger;
  /** Current state of the client. */
  state(): ClientState;
  /** The running engine; throws CLIENT_NOT_READY when there is none. */
  requireEngine(): Engine;
  /** Journals and queues a send (tracked, paced, idempotent); refuses it unless READY/holding. */
  accept(chatId: string, content: OutgoingContent, options: AcceptOptions): Promise<QueuedSend>;
  /** Reports a failure no caller sees to the error sink (source `client`, this client). */
  report(event: string, error: unknown): void;
  /** The client's event emitter (handler failures reach the error sink). */
  readonly events: SafeEmitter<ClientEvents>;
}
