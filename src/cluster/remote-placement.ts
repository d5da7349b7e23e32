/**
 * Where a client runs in a fleet (a shared outbox): on this node, or on another one (or nobody for a
 * moment, during a failover). A send for a client another node runs is only journaled here: the
 * owner pages it in (`OwnerCatchUp`) and sends it with its pacing; its `result` follows the record
 * in the outbox (`OutboxFollower`). While this node runs the client it watches the outbox for such
 * sends, and recovery runs again each time it starts running the client. When another node takes
 * the client over, the waiting sends here are handed off: they stay queued in the outbox for it.
 */
import type {
  ClientPlacement,
  PlacedClient,
  PlacementFactory,
} from '../client/core/client-placement.js';
import { clientNotReady } from '../client/core/client-placement.js';
import type { AcceptOptions, QueuedSend, SendRoute } from '../client/send/send-intake.js';
import type { OutgoingContent } from '../client/types.js';
import { WakitError } from '../errors/index.js';
import type { OutboxStore } from '../queue/outbox/index.js';
import { OutboxFollower } from './outbox-follower.js';
import type { Ownership } from './ownership.js';
import { OwnerCatchUp } from './owner-catch-up.js';

/** Rejects the results of waiting sends when another node takes the client over (never shown). */
const HANDED_OFF = new WakitError(
  'CLIENT_UNAVAILABLE',
  'The client runs on another node now: the send waits in the shared outbox for it',
);

/** Placements of a fleet's clients: `ownership` says which this node runs, `outbox` is shared. */
export function fleetPlacement(ownership: Ownership, outbox: OutboxStore): PlacementFactory {
  return (client) => new FleetClientPlacement(client, ownership, outbox);
}

class FleetClientPlacement implements ClientPlacement {
  readonly #client: PlacedClient;
  readonly #ownership: Ownership;
  readonly #follower: OutboxFollower;
  readonly #catchUp: OwnerCatchUp;
  readonly #unlisten: () => void;
  /** Hand-offs so far: a send accepted before one may be another node's (or finished) since. */
  #handOffs = 0;
  /** This node runs the client: queued here; results that were handed off follow the outbox. */
  readonly #owned: SendRoute;
  /** Another node runs it: only journaled, within `queue.maxSize` open sends in the outbox. */
  readonly #remote: SendRoute;

  constructor(client: PlacedClient, ownership: Ownership, outbox: OutboxStore) {
    this.#client = client;
    this.#ownership = ownership;
    const { name, queue, intake } = client;
    const follower = new OutboxFollower(outbox);
    this.#follower = follower;
    this.#catchUp = new OwnerCatchUp({ client: name, queue, outbox, log: client.log });
    this.#owned = {
      ...intake.local,
      outcome: (id) => {
        const handOffs = this.#handOffs;
        // First asked for after a hand-off: this queue forgot the send (it waits in the outbox for
        // the new owner, or is finished by it), so only the outbox knows how it ends.
        return (queued) =>
          this.#handOffs !== handOffs
            ? follower.follow(id)
            : queued().catch((error: unknown) => {
                if (error === HANDED_OFF) return follower.follow(id);
                throw error;
              });
      },
    };
    this.#remote = {
      admit: async () => {
        const open = await outbox.countOpen(name);
        queue.assertRoomFor(open.reply + open.normal + open.bulk);
      },
      queueHere: false,
      follow: (id) => follower.follow(id),
    };
    if (ownership.isLocal(name)) this.#catchUp.start();
    this.#unlisten = ownership.onChange((moved, local) => {
      if (moved === name) this.#moved(local);
    });
  }

  /**
   * A client another node runs (or nobody, during a failover) or one being taken over here is
   * journaled in the shared outbox for the owner unless it is FAILED (a remote one: as its owner
   * reported).
   */
  accept(chatId: string, content: OutgoingContent, options: AcceptOptions): Promise<QueuedSend> {
    const client = this.#client;
    if (!this.#ownership.isLocal(client.name)) {
      if (this.#ownership.fleetState(client.name) === 'FAILED') {
        return Promise.reject(clientNotReady(client.name, 'FAILED'));
      }
      return client.intake.accept(chatId, content, options, this.#remote);
    }
    // a client this node is taking over (STARTING, AUTHENTICATED) holds sends until READY
    const state = client.state();
    if (state === 'STOPPED' || state === 'FAILED') {
      return Promise.reject(clientNotReady(client.name, state));
    }
    return client.intake.accept(chatId, content, options, this.#owned);
  }

  /** Stops watching; results followed in the outbox reject with SHUTTING_DOWN (sends stay journaled). */
  close(): void {
    this.#unlisten();
    this.#catchUp.stop();
    this.#follower.close(
      new WakitError('SHUTTING_DOWN', 'Stopped following the send: it stays in the outbox'),
    );
  }

  /**
   * This node starts (`local`) or stops running the client: it watches the outbox for sends other
   * nodes accept only while it runs it, and recovers again the next time it is READY here.
   */
  #moved(local: boolean): void {
    const client = this.#client;
    client.intake.rearm();
    if (local) {
      this.#catchUp.start();
      if (client.state() === 'READY') client.recover();
      return;
    }
    this.#catchUp.stop();
    // Its waiting sends are the new owner's now: forgotten here (still queued in the outbox), so
    // that they are never sent from here; results handed out follow the outbox instead.
    this.#handOffs++;
    client.queue.handOff(HANDED_OFF);
  }
}
