/**
 * `GET /api/v1/cluster`: the fleet as this node sees it (nodes with their clients and when their
 * announcement lapses; each client's node and when its claim lapses). A token scoped to some
 * clients sees only those. On a single server: `mode: "single"`, no nodes, every client local.
 */
import { z } from '../../../src/index.js';
import { canSee } from '../middleware/auth.js';
import type { RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { restSchemas } from '../schemas/api-schemas.js';

function named<T extends z.ZodType>(id: string, schema: T): T {
  restSchemas.add(schema, { id });
  return schema;
}

export const ClusterNode = named(
  'ClusterNode',
  z
    .object({
      nodeId: z.string(),
      url: z.string().describe('Its REST base URL (requests for its clients are forwarded there)'),
      clients: z.array(z.string()),
      startedAt: z.string(),
      expiresAt: z.string().describe('Its announcement lapses then unless renewed'),
    })
    .strict(),
);

export const ClusterClient = named(
  'ClusterClient',
  z
    .object({
      name: z.string(),
      node: z.string().nullable().describe('The node running it now; null: none'),
      state: z.string().nullable().describe('Its state as its node last reported it'),
      claimExpiresAt: z
        .string()
        .nullable()
        .describe("The node's claim (and so its session lease) lapses then unless renewed"),
    })
    .strict(),
);

export const ClusterOverview = named(
  'ClusterOverview',
  z
    .object({
      mode: z.enum(['single', 'fleet']),
      nodeId: z.string().nullable().describe('The node answering; null on a single server'),
      nodes: z.array(ClusterNode),
      clients: z.array(ClusterClient),
    })
    .strict(),
);

export function clusterRoutes(rc: RestContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/cluster',
      operationId: 'getCluster',
      summary: 'The nodes of the fleet, their clients, and where each client runs',
      description:
        'Cluster mode: every live node with its clients, and for each client the node running it and when that claim lapses. A token scoped to some clients sees only those. A single server answers `mode: "single"` with no nodes.',
      tag: 'system',
      responses: { 200: { description: 'The fleet', schema: ClusterOverview } },
      errors: [401, 503],
      async handler(ctx, { principal }) {
        const visible = rc.sdk.clients.list().filter((c) => canSee(principal, c.name));
        const cluster = rc.fleet.view;
        ctx.set('Cache-Control', 'no-store');
        if (!cluster) {
          ctx.body = {
            mode: 'single',
            nodeId: null,
            nodes: [],
            clients: visible.map((c) => ({
              name: c.name,
              node: null,
              state: c.state,
              claimExpiresAt: null,
            })),
          };
          return;
        }
        const { nodes, owners } = await rc.fleet.overview(visible.map((c) => c.name));
        ctx.body = {
          mode: 'fleet',
          nodeId: cluster.nodeId,
          nodes: nodes.map((node) => ({
            nodeId: node.nodeId,
            url: node.url,
            clients: node.clients.filter((name) => canSee(principal, name)),
            startedAt: node.startedAt,
            expiresAt: new Date(node.expiresAt).toISOString(),
          })),
          clients: visible.map((client, index) => {
            const owner = owners[index];
            return {
              name: client.name,
              node: owner?.nodeId ?? null,
              state: rc.fleet.runsHere(client.name)
                ? client.state
                : (rc.fleet.remoteState(client.name) ?? null),
              claimExpiresAt: owner ? new Date(owner.expiresAt).toISOString() : null,
            };
          }),
        };
      },
    }),
  ];
}
