/**
 * The fleet as the REST plugin asks about it, in one place (`rc.fleet`). One server answers as a
 * fleet of one where every client runs here, so routes and middleware ask without branching on the
 * mode; what exists only in a fleet (nodes, owners, the event stream) is `view`, undefined on one
 * server.
 */
import type * as http from '../../src/entries/http.js';
import { WakitError, type ClientState } from '../../src/index.js';

export interface RestFleet {
  /** The fleet (`cluster` config); undefined on one server. */
  readonly view: http.ClusterView | undefined;
  /** True when this node runs `client` (one server: every client). */
  runsHere(client: string): boolean;
  /** The state of `client` as the node running it published it; undefined when it runs here. */
  remoteState(client: string): ClientState | undefined;
  /**
   * The live nodes, and the owner of each of `clients` (in order); STORAGE_UNAVAILABLE when the
   * fleet cannot be read. One server: no nodes, no owners.
   */
  overview(clients: readonly string[]): Promise<{
    nodes: http.FleetNode[];
    owners: (http.ClientOwner | undefined)[];
  }>;
}

export function restFleet(view: http.ClusterView | undefined): RestFleet {
  if (!view) {
    return {
      view,
      runsHere: () => true,
      remoteState: () => undefined,
      overview: (clients) => Promise.resolve({ nodes: [], owners: clients.map(() => undefined) }),
    };
  }
  return {
    view,
    runsHere: (client) => view.isLocal(client),
    remoteState: (client) => (view.isLocal(client) ? undefined : view.stateOf(client)),
    overview: async (clients) => {
      const [nodes, owners] = await Promise.all([
        view.nodes(),
        Promise.all(clients.map((client) => view.ownerOf(client))),
      ]).catch((error: unknown) => {
        throw new WakitError('STORAGE_UNAVAILABLE', 'The fleet (Redis) cannot be read now', {
          cause: error,
        });
      });
      return { nodes, owners };
    },
  };
}
