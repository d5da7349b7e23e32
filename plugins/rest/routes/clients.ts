/** Client routes: `/api/v1/client/...` (the default client) and `/api/v1/clients/{name}/...`. */
import QRCode from 'qrcode';
import { z } from 'zod';
import { WakitError, type BotClient } from '../../../src/index.js';
import type { Principal } from '../middleware/auth.js';
import { resolveClient, type RestContext } from '../context.js';
import { listItems } from './client-admin.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  ClientInfo,
  ClientList,
  ClientSummary,
  LogoutResult,
  PairingCode,
  PairingCodeRequest,
  QrBase64,
  QrQuery,
  clientNameParam,
} from '../schemas/api-schemas.js';
import { EngineHealth, HeldRetry } from '../schemas/health-schemas.js';

const RUNNING = new Set(['STARTING', 'SCAN_QR', 'AUTHENTICATED', 'READY', 'DISCONNECTED']);
const NameParams = z.object({ name: clientNameParam }).strict();

export function infoOf(client: BotClient): z.output<typeof ClientInfo> {
  const info = client.info();
  return {
    name: info.name,
    status: info.state,
    me: info.me,
    engine: info.engine,
    since: info.since,
    queue: info.queue,
    lastDisconnect: info.lastDisconnect,
    reconnect: info.reconnect,
    health: info.health,
    governor: info.governor,
  };
}

async function sendQr(
  rc: RestContext,
  ctx: Parameters<AnyRoute['handler']>[0],
  client: BotClient,
  format: string,
): Promise<void> {
  const qr = client.state === 'SCAN_QR' ? rc.hub.qr(client.name) : undefined;
  if (!qr) {
    throw new WakitError(
      'QR_NOT_AVAILABLE',
      `Client ${client.name} is ${client.state}, not waiting for a QR scan`,
      {
        details: { status: client.state },
      },
    );
  }
  ctx.set('Cache-Control', 'no-store');
  switch (format) {
    case 'png':
      ctx.type = 'image/png';
      ctx.body = await QRCode.toBuffer(qr, { type: 'png', margin: 2, width: 320 });
      return;
    case 'svg':
      ctx.type = 'image/svg+xml';
      ctx.body = await QRCode.toString(qr, { type: 'svg', margin: 2 });
      return;
    case 'text':
      ctx.type = 'text/plain';
      ctx.body = qr;
      return;
    default: {
      const png = await QRCode.toBuffer(qr, { type: 'png', margin: 2, width: 320 });
      ctx.body = { format: 'base64', mimetype: 'image/png', data: png.toString('base64') };
    }
  }
}

/** The routes acting on one client, under `prefix` (with or without a `{name}` parameter). */
function perClientRoutes(rc: RestContext, named: boolean): AnyRoute[] {
  const base = named ? '/api/v1/clients/{name}' : '/api/v1/client';
  const params = named ? NameParams : undefined;
  const suffix = named ? 'Client' : 'DefaultClient';
  const tag = 'clients';
  const which = named ? 'the named client' : 'the default client';
  const pick = (principal: Principal, p: unknown): BotClient =>
    resolveClient(rc, principal, named ? (p as { name: string }).name : undefined);
  const clientErrors = [401, 403, 404];
  return [
    defineRoute({
      method: 'POST',
      path: `${base}/initialize`,
      operationId: `initialize${suffix}`,
      summary: `Initialize ${which} (starts linking; a QR follows unless a session is restored)`,
      tag,
      params,
      responses: {
        200: {
          description: 'Already starting or running: the current status',
          schema: ClientSummary,
        },
        202: { description: 'Initialization started', schema: ClientSummary },
      },
      errors: clientErrors,
      handler(ctx, { params: p, principal }) {
        const client = pick(principal, p);
        ctx.state.client = client.name;
        if (RUNNING.has(client.state)) {
          ctx.status = 200;
        } else {
          client.initialize().catch((error: unknown) => {
            rc.sdk.events.report(error, { event: 'client.start', client: client.name });
          });
          ctx.status = 202;
        }
        ctx.body = { name: client.name, status: client.state };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/qr`,
      operationId: `getQr${suffix}`,
      summary: `The QR code ${which} shows while waiting to be linked`,
      tag,
      params,
      query: QrQuery,
      responses: {
        200: {
          description: 'format=base64 (default): JSON; png, svg and text: the raw image or string',
          schema: QrBase64,
          raw: {
            'image/png': 'format=png',
            'image/svg+xml': 'format=svg',
            'text/plain': 'format=text',
          },
        },
      },
      errors: [...clientErrors, 409],
      async handler(ctx, { params: p, query, principal }) {
        const client = pick(principal, p);
        ctx.state.client = client.name;
        await sendQr(rc, ctx, client, query.format ?? 'base64');
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/info`,
      operationId: `getInfo${suffix}`,
      summary: `Status and details of ${which}`,
      tag,
      params,
      responses: { 200: { description: 'Client information', schema: ClientInfo } },
      errors: clientErrors,
      handler(ctx, { params: p, principal }) {
        const client = pick(principal, p);
        ctx.state.client = client.name;
        ctx.body = infoOf(client);
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/health`,
      operationId: `checkHealth${suffix}`,
      summary: `Probe the engine of ${which} now (capabilities on its WhatsApp Web build)`,
      tag,
      params,
      responses: { 200: { description: 'The new health check', schema: EngineHealth } },
      errors: [...clientErrors, 409, 501, 502],
      async handler(ctx, { params: p, principal }) {
        const client = pick(principal, p);
        ctx.state.client = client.name;
        if (client.state !== 'READY') {
          throw new WakitError('CLIENT_NOT_READY', `Client ${client.name} is ${client.state}`);
        }
        const health = await client.checkHealth();
        if (!health) throw new WakitError('NOT_SUPPORTED', 'This engine has no health probes');
        ctx.body = health;
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/held/retry`,
      operationId: `retryHeld${suffix}`,
      summary: `Send again what ${which} held for ENGINE_INCOMPATIBLE (after an upgrade or reload)`,
      tag,
      params,
      responses: { 200: { description: 'How many went back to the queue', schema: HeldRetry } },
      errors: clientErrors,
      async handler(ctx, { params: p, principal }) {
        const client = pick(principal, p);
        ctx.state.client = client.name;
        ctx.body = { retried: await client.retryHeld() };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/logout`,
      operationId: `logout${suffix}`,
      summary: `Log ${which} out: the session is invalidated and deleted`,
      tag,
      params,
      responses: { 200: { description: 'Logged out', schema: LogoutResult } },
      errors: clientErrors,
      async handler(ctx, { params: p, principal }) {
        const client = pick(principal, p);
        ctx.state.client = client.name;
        await client.logout();
        ctx.body = { name: client.name, status: 'STOPPED' };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/pairing-code`,
      operationId: `requestPairingCode${suffix}`,
      summary: `Link ${which} by phone number instead of QR (engines that support it)`,
      tag,
      params,
      body: PairingCodeRequest,
      responses: { 200: { description: 'The code to type on the phone', schema: PairingCode } },
      errors: [...clientErrors, 400, 409, 415, 501],
      async handler(ctx, { params: p, body, principal }) {
        const client = pick(principal, p);
        ctx.state.client = client.name;
        ctx.body = { code: await client.requestPairingCode(body.phoneNumber) };
      },
    }),
  ];
}

export function clientRoutes(rc: RestContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/clients',
      operationId: 'listClients',
      summary: 'The clients this token may see, with their status and origin',
      tag: 'clients',
      responses: { 200: { description: 'Clients', schema: ClientList } },
      errors: [401],
      handler(ctx, { principal }) {
        ctx.body = listItems(rc, principal);
      },
    }),
    ...perClientRoutes(rc, false),
    ...perClientRoutes(rc, true),
  ];
}
