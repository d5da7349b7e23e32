/**
 * What plugins see of the fleet (the `fleet` service, undefined on a single server): this node's id, where
 * each client runs, the nodes, and the fleet's one event stream. The REST plugin forwards requests
 * to owners, serves `GET /api/v1/cluster`, and reads SSE and webhooks from the stream.
 */

import type { ClientState } from '../client/types.js';

/** Where a client runs now. */
export interface ClientOwner {
  nodeId: string;
  /** The owner's REST base URL (`cluster.advertiseUrl`). */
  url: string;
  /** When the owner's claim lapses unless renewed (ms since epoch). */
  expiresAt: number;
}

/** A node of the fleet, as it last announced itself. */
export interface FleetNode {
  nodeId: string;
  url: string;
  /** Clients it runs now. */
  clients: string[];
  startedAt: string;
  /** Its announcement lapses then unless renewed (ms since epoch). */
  expiresAt: number;
}

/** One client event as the fleet's stream carries it. */
export interface FleetEvent {
  /** Stream id (`<ms>-<n>`): increasing across the fleet; the SSE `id:` for resume on any node. */
  id: string;
  event: string;
  client: string;
  /** ISO 8601 time the owner published it. */
  at: string;
  data: unknown;
}

/** The fleet's one event stream: each event is published once, by the node that runs the client. */
export interface FleetEventStream {
  /** Publishes an event of a client this node runs; resolves to its stream id. */
  publish(client: string, event: string, data: unknown): Promise<string>;
  /** Calls `listener` with every event of the fleet from now on, in stream order. */
  subscribe(listener: (event: FleetEvent) => void): () => void;
  /** Events after stream id `after`, oldest first, as many as the stream still holds (SSE resume). */
  since(after: string, limit?: number): Promise<FleetEvent[]>;
  /**
   * Consumes the stream in the fleet-wide group `group`: each event reaches exactly one node's
   * `handler` (webhooks: one delivery per event for the whole fleet); an event is acknowledged when
   * its handler settles, and one taken by a node that died is claimed by another. Handlers still
   * running when the returned function is called are not acknowledged: other nodes take them over.
   */
  consume(group: string, handler: (event: FleetEvent) => Promise<void>): () => void;
  /** Whether `id` is a stream id (`<ms>` or `<ms>-<n>`). */
  isId(id: string): boolean;
  /** Negative, zero or positive as stream id `a` comes before, equals or comes after `b`. */
  compareIds(a: string, b: string): number;
}

export interface ClusterView {
  readonly nodeId: string;
  /** True when this node runs `client` now (requests for other clients are forwarded). */
  isLocal(client: string): boolean;
  /**
   * Where this node's REST API listens (the REST plugin calls it once listening); ignored when
   * `cluster.advertiseUrl` is set. Other nodes forward requests for this node's clients there.
   */
  advertise(url: string): void;
  /** The state of `client` as its owner last published it (this node's own clients: read them). */
  stateOf(client: string): ClientState | undefined;
  /** The node that ran `client` at the last heartbeat, if any (cached; `ownerOf` asks Redis). */
  nodeOf(client: string): string | undefined;
  /** The node that runs `client` now, if any. */
  ownerOf(client: string): Promise<ClientOwner | undefined>;
  /** Every live node with its clients. */
  nodes(): Promise<FleetNode[]>;
  readonly events: FleetEventStream;
}
