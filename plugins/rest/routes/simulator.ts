/**
 * Simulator routes (only with the simulator engine): play a contact writing to or calling the bot
 * and read what the bot sent it. The dashboard's chat panel uses them. They need a token for all
 * clients (routes/simulator-actions.ts has the phones' message actions).
 */
import type { Context } from 'koa';
import { z } from 'zod';
import { WakitError, normalizeChatId } from '../../../src/index.js';
import type { RestHost } from '../context.js';
import type { Principal } from '../auth.js';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  PhoneParam,
  SimInbox,
  SimScanned,
  SimScanRequest,
  SimSendRequest,
  SimSent,
  SimVoteRequest,
  SimVoted,
} from '../simulator-schemas.js';
import { SimCallPlaced, SimCallRequest } from './chat-schemas.js';

export function requireAll(principal: Principal): void {
  if (principal.clients !== '*') {
    throw new WakitError('FORBIDDEN', 'Simulator routes need a token for all clients');
  }
}

/** `to` of a phone's send or call; by default the number of the named (or default) client. */
function targetOf(
  rc: RestContext,
  ctx: Context,
  principal: Principal,
  body: { to?: string | undefined; client?: string | undefined },
): string {
  if (body.to !== undefined) return normalizeChatId(body.to, 'to');
  const client = resolveClient(rc, principal, body.client);
  ctx.state.client = client.name;
  const me = client.info().me;
  if (!me) {
    throw new WakitError(
      'CLIENT_NOT_READY',
      `Client ${client.name} is not linked to a number yet`,
      {
        details: { client: client.name, state: client.state },
      },
    );
  }
  return me.id;
}

export function simulatorRoutes(rc: RestContext, sdk: RestHost): AnyRoute[] {
  const simulator = sdk.simulator;
  if (!simulator) return [];
  const params = z.object({ number: PhoneParam }).strict();
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/simulator/phones/{number}/messages',
      operationId: 'simulatorSend',
      summary:
        "Simulator: the phone {number} sends a text, an image, a location, a poll or contact cards (to a client's number by default)",
      tag: 'simulator',
      params,
      body: SimSendRequest,
      responses: { 201: { description: 'Sent', schema: SimSent } },
      errors: [400, 401, 403, 404, 409, 415],
      async handler(ctx, { params: p, body, principal }) {
        requireAll(principal);
        const to = targetOf(rc, ctx, principal, body);
        const phone = simulator.phone(p.number);
        const quoted = {
          ...(body.quotedMessageId ? { quotedMessageId: body.quotedMessageId } : {}),
          ...(body.mentions ? { mentions: body.mentions } : {}),
        };
        const sent = body.location
          ? await phone.send(to, { location: body.location }, quoted)
          : body.poll
            ? await phone.send(to, { poll: body.poll }, quoted)
            : body.contacts
              ? await phone.send(to, { contacts: body.contacts }, quoted)
              : body.image
                ? await phone.send(
                    to,
                    {
                      data: Buffer.from(body.image.data, 'base64'),
                      mimetype: body.image.mimetype,
                      ...(body.image.filename !== undefined
                        ? { filename: body.image.filename }
                        : {}),
                      ...(body.text !== undefined ? { caption: body.text } : {}),
                    },
                    quoted,
                  )
                : await phone.send(to, body.text ?? '', quoted);
        ctx.status = 201;
        ctx.body = { id: sent.id };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/simulator/phones/{number}/calls',
      operationId: 'simulatorCall',
      summary: "Simulator: the phone {number} calls (a client's number by default)",
      tag: 'simulator',
      params,
      body: SimCallRequest,
      responses: { 201: { description: 'Ringing (or already rejected)', schema: SimCallPlaced } },
      errors: [400, 401, 403, 404, 409, 415],
      handler(ctx, { params: p, body, principal }) {
        requireAll(principal);
        const to = targetOf(rc, ctx, principal, body);
        const call = simulator
          .phone(p.number)
          .call(to, body.video !== undefined ? { video: body.video } : {});
        ctx.status = 201;
        ctx.body = { id: call.id, to: call.to, state: call.state };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/simulator/phones/{number}/inbox',
      operationId: 'simulatorInbox',
      summary: 'Simulator: the last messages the phone {number} received',
      tag: 'simulator',
      params,
      responses: { 200: { description: 'Oldest first', schema: SimInbox } },
      errors: [400, 401, 403],
      handler(ctx, { params: p, principal }) {
        requireAll(principal);
        ctx.body = simulator.phone(p.number).inbox.map((m) => ({
          id: m.id,
          chatId: m.chatId,
          author: m.author,
          type: m.type,
          body: m.body,
          timestamp: m.timestamp,
          ack: m.ack,
          isGroup: m.isGroup,
          ...(m.media
            ? {
                media: {
                  mimetype: m.media.mimetype,
                  ...(m.media.filename !== undefined ? { filename: m.media.filename } : {}),
                  size: m.media.data.length,
                },
              }
            : {}),
          ...(m.quotedMessageId !== undefined ? { quotedMessageId: m.quotedMessageId } : {}),
          mentionedIds: [...m.mentionedIds],
          ...(m.location ? { location: m.location } : {}),
          ...(m.poll ? { poll: m.poll } : {}),
          ...(m.vcards ? { vcards: [...m.vcards] } : {}),
        }));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/simulator/phones/{number}/votes',
      operationId: 'simulatorVote',
      summary:
        'Simulator: the phone {number} votes on a poll (the bot gets `poll.vote`); no options retracts',
      tag: 'simulator',
      params,
      body: SimVoteRequest,
      responses: { 200: { description: 'Voted', schema: SimVoted } },
      errors: [400, 401, 403, 404, 415],
      async handler(ctx, { params: p, body, principal }) {
        requireAll(principal);
        await simulator.phone(p.number).vote(body.messageId, body.options);
        ctx.body = { messageId: body.messageId, options: body.options };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/simulator/scan',
      operationId: 'simulatorScan',
      summary: "Simulator: a phone scans the client's QR code (links it, as a person would)",
      tag: 'simulator',
      body: SimScanRequest,
      responses: {
        202: { description: 'Scanned; the client goes on to READY', schema: SimScanned },
      },
      errors: [400, 401, 403, 404, 409, 415],
      handler(ctx, { body, principal }) {
        requireAll(principal);
        const client = resolveClient(rc, principal, body.client);
        ctx.state.client = client.name;
        const qr = client.state === 'SCAN_QR' ? rc.hub.qr(client.name) : undefined;
        if (!qr) {
          throw new WakitError(
            'QR_NOT_AVAILABLE',
            `Client ${client.name} is ${client.state}, not showing a QR code to scan`,
            { details: { status: client.state } },
          );
        }
        simulator.scan(qr, {
          ...(body.phone !== undefined ? { phone: body.phone } : {}),
          ...(body.pushname !== undefined ? { pushname: body.pushname } : {}),
        });
        ctx.status = 202;
        ctx.body = { client: client.name, status: client.state };
      },
    }),
  ];
}
