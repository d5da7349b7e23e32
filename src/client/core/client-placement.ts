import type { Logger } from 'pino';
import type { WakitConfig } from '../../config/schema.js';
import { WakitError } from '../../errors/index.js';
import type { OutboundQueue } from '../../queue/index.js';
import type { AcceptOptions, QueuedSend, SendIntake } from '../send/send-intake.js';
import type { ClientState, OutgoingContent } from '../types.js';

/** What a placement gets of its client. */
export interface PlacedClient {
  readonly name: string;
  readonly config: Readonly<WakitConfig>;
  readonly log: Logger;
  state(): ClientState;
  readonly intake: SendIntake;
  readonly queue: OutboundQueue;
  /** Re-queues what the outbox holds for the client (failures are reported). */
  recover(): void;
}

/**
 * Where a client runs, as a strategy behind the one client object of its name: every send the
 * client is asked for goes through `accept`. One server: `LocalPlacement`. A fleet registers its
 * own (src/cluster), for clients this process runs or another node does.
 */
export interface ClientPlacement {
  /** Whether a send is accepted now, and how: rejects with CLIENT_NOT_READY when not. */
  accept(chatId: string, content: OutgoingContent, options: AcceptOptions): Promise<QueuedSend>;
  /** The client is closed for good. */
  close(): void;
}

/** Makes the placement of each client (the kernel's `PLACEMENT`). */
export type PlacementFactory = (client: PlacedClient) => ClientPlacement;

export function clientNotReady(client: string, state: ClientState): WakitError {
  return new WakitError('CLIENT_NOT_READY', `Client ${client} is ${state}, not READY`, {
    details: { client, state },
  });
}

/**
 * The client runs in this process: a send is accepted when READY, or while it is not READY yet
 * with `queue.holdUntilReady` (not when STOPPED or FAILED); it is queued here.
 */
export class LocalPlacement implements ClientPlacement {
  constructor(private readonly client: PlacedClient) {}

  accept(chatId: string, content: OutgoingContent, options: AcceptOptions): Promise<QueuedSend> {
    const { client } = this;
    const state = client.state();
    const holding = client.config.queue.holdUntilReady && state !== 'STOPPED' && state !== 'FAILED';
    if (state !== 'READY' && !holding) {
      return Promise.reject(clientNotReady(client.name, state));
    }
    return client.intake.accept(chatId, content, options);
  }

  close(): void {}
}

export const localPlacement: PlacementFactory = (client) => new LocalPlacement(client);

/**
 * Placements made by a factory that is known later (loaded on demand): a client created before
 * then gets its placement once the factory is there; its sends wait for it.
 */
export function deferredPlacement(later: Promise<PlacementFactory>): PlacementFactory {
  return (client) => {
    let placement: ClientPlacement | undefined;
    let closed = false;
    const ready = later.then((factory) => (placement = factory(client)));
    ready.then(
      (made) => closed && made.close(),
      // not reported: a fleet that fails to load fails sdk.start() with its error
      () => undefined,
    );
    return {
      accept: async (chatId, content, options) =>
        (placement ?? (await ready)).accept(chatId, content, options),
      close: () => {
        closed = true;
        placement?.close();
      },
    };
  };
}
