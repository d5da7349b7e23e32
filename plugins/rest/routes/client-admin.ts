/**
 * Clients at run time: `POST /api/v1/clients`, `DELETE /api/v1/clients/{name}`,
 * `POST /api/v1/clients/{name}/restart` and the per-client webhooks. Creating, deleting and
 * reading or changing webhooks need a token for every client (`clients: ["*"]`); a token scoped to
 * some clients may list, see and restart those.
 */
import { requireLocal } from '../middleware/forward.js';
import { z } from 'zod';
import type * as http from '../../../src/entries/http.js';
import { WakitError } from '../../../src/index.js';
import { canSee, requireClientAccess, type Principal } from '../middleware/auth.js';
import {
  ClientRemoved,
  ClientWebhookList,
  ClientWebhooksRequest,
  CreateClientRequest,
  DeleteClientQuery,
} from '../schemas/client-admin-schemas.js';
import { maskWebhook } from '../events/client-webhooks.js';
import type { RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { ClientListItem, ClientSummary, clientNameParam } from '../schemas/api-schemas.js';

const NameParams = z.object({ name: clientNameParam }).strict();
const tag = 'clients';

/** FORBIDDEN unless the token may act on every client. */
function requireAllClients(principal: Principal, action: string): void {
  if (principal.clients !== '*') {
    throw new WakitError(
      'FORBIDDEN',
      `Only a token for all clients (clients: ["*"]) may ${action}`,
      { details: { needs: '*' } },
    );
  }
}

function itemOf(rc: RestContext, listing: http.ClientListing): z.output<typeof ClientListItem> {
  const cluster = rc.fleet.view;
  return {
    name: listing.name,
    // in a fleet, a client another node runs shows the state that node published
    status: rc.fleet.remoteState(listing.name) ?? listing.state,
    origin: listing.origin,
    me: listing.me,
    since: listing.since,
    ...(listing.createdAt ? { createdAt: listing.createdAt } : {}),
    webhooks: rc.clientWebhooks.of(listing.name).length,
    ...(cluster ? { node: cluster.nodeOf(listing.name) ?? null } : {}),
  };
}

/** `GET /api/v1/clients`: the clients this token may see, with status and origin. */
export function listItems(
  rc: RestContext,
  principal: Principal,
): z.output<typeof ClientListItem>[] {
  return rc.sdk.clientAdmin
    .list()
    .filter((c) => canSee(principal, c.name))
    .map((c) => itemOf(rc, c));
}

function webhooksOf(rc: RestContext, name: string): z.output<typeof ClientWebhookList> {
  return { name, webhooks: rc.clientWebhooks.of(name).map(maskWebhook) };
}

export function clientAdminRoutes(rc: RestContext): AnyRoute[] {
  const admin = rc.sdk.clientAdmin;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/clients',
      operationId: 'createClient',
      summary: 'Add a client at run time (kept across restarts); it starts at once and shows a QR',
      description:
        'Needs a token for all clients. The client is kept in `<auth.dataPath>/clients.json` with its webhooks and created again at the next start. Names: 1-64 of A-Z, a-z, 0-9, _ and -.',
      tag,
      body: CreateClientRequest,
      responses: {
        201: {
          description: 'Created (initializing once the server is started)',
          schema: ClientListItem,
          headers: { Location: 'The new client: /api/v1/clients/{name}/info' },
        },
      },
      errors: [400, 401, 403, 409, 415, 503],
      async handler(ctx, { body, principal }) {
        requireAllClients(principal, 'add clients');
        const hooks = body.webhooks ?? [];
        rc.clientWebhooks.check(hooks, 'webhooks');
        const client = await admin.add({
          name: body.name,
          settings: rc.clientWebhooks.settings(hooks),
        });
        ctx.state.client = client.name;
        const listing = admin.list().find((c) => c.name === client.name);
        ctx.status = 201;
        ctx.set('Location', `/api/v1/clients/${encodeURIComponent(client.name)}/info`);
        ctx.body = listing ? itemOf(rc, listing) : itemOf(rc, { ...client.info(), origin: 'api' });
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/clients/{name}',
      operationId: 'deleteClient',
      summary: 'Remove a client added at run time (its session is kept unless confirmed)',
      description:
        'Needs a token for all clients. Stops the client and forgets it (sends still waiting fail with SHUTTING_DOWN). The session is kept, so adding the name again needs no QR; `?deleteSession=true&confirm=<name>` also logs it out and deletes the session. Configured clients (config.clients) answer 409 CLIENT_NOT_MANAGED.',
      tag,
      params: NameParams,
      query: DeleteClientQuery,
      responses: { 200: { description: 'Removed', schema: ClientRemoved } },
      errors: [400, 401, 403, 404, 409, 503],
      async handler(ctx, { params, query, principal }) {
        requireAllClients(principal, 'remove clients');
        const deleteSession = query.deleteSession === 'true';
        if (deleteSession && query.confirm !== params.name) {
          throw new WakitError(
            'VALIDATION_FAILED',
            `Deleting the session of ${params.name} needs confirm=${params.name}`,
            { issues: [{ path: 'query.confirm', message: 'must equal the client name' }] },
          );
        }
        ctx.state.client = params.name;
        await admin.remove(params.name, { deleteSession });
        ctx.body = { name: params.name, sessionDeleted: deleteSession };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/clients/{name}/restart',
      operationId: 'restartClient',
      summary: 'Stop the client (keeping its session) and initialize it again',
      tag,
      params: NameParams,
      responses: { 202: { description: 'Restarting', schema: ClientSummary } },
      errors: [401, 403, 404, 409],
      async handler(ctx, { params, principal }) {
        requireClientAccess(principal, params.name);
        ctx.state.client = params.name;
        rc.sdk.clients.get(params.name);
        requireLocal(rc, params.name);
        const client = await admin.restart(params.name);
        ctx.status = 202;
        ctx.body = { name: client.name, status: client.state };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/clients/{name}/webhooks',
      operationId: 'getClientWebhooks',
      summary: "The client's own webhooks (secrets masked)",
      tag,
      params: NameParams,
      responses: { 200: { description: 'Webhooks', schema: ClientWebhookList } },
      errors: [401, 403, 404],
      handler(ctx, { params, principal }) {
        requireAllClients(principal, 'read client webhooks');
        ctx.state.client = params.name;
        rc.sdk.clients.get(params.name);
        ctx.body = webhooksOf(rc, params.name);
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/clients/{name}/webhooks',
      operationId: 'setClientWebhooks',
      summary: "Replace the client's own webhooks (clients added at run time)",
      description:
        'Needs a token for all clients. New events go to the new list at once; deliveries already scheduled finish as they were. Signed and retried like configured webhooks. Configured clients answer 409 CLIENT_NOT_MANAGED (give them webhooks in the REST options).',
      tag,
      params: NameParams,
      body: ClientWebhooksRequest,
      responses: { 200: { description: 'The webhooks now', schema: ClientWebhookList } },
      errors: [400, 401, 403, 404, 409, 415, 503],
      async handler(ctx, { params, body, principal }) {
        requireAllClients(principal, 'change client webhooks');
        ctx.state.client = params.name;
        await rc.clientWebhooks.set(params.name, body.webhooks);
        ctx.body = webhooksOf(rc, params.name);
      },
    }),
  ];
}
