/**
 * Which clients this process runs. A single server runs every client it has; in a fleet each client
 * runs on exactly one node (its owner) and the others only accept sends into the shared outbox for
 * it and answer its routes by forwarding them (docs/scaling.md). Not registered in the kernel:
 * the fleet's placement (`fleetPlacement`, remote-placement.ts) consults it per client.
 */
import type { ClientState } from '../client/types.js';

export interface Ownership {
  /** True when this process runs `client` (a single server: always). */
  isLocal(client: string): boolean;
  /**
   * The state of `client` as its owner last reported it to the fleet; undefined when this process
   * runs it (read the client itself) or nobody has reported one yet.
   */
  fleetState(client: string): ClientState | undefined;
  /** Calls `listener` whenever this process starts or stops running a client. */
  onChange(listener: (client: string, local: boolean) => void): () => void;
}

/** One server: every client is local. */
export const singleServer: Ownership = {
  isLocal: () => true,
  fleetState: () => undefined,
  onChange: () => () => undefined,
};
