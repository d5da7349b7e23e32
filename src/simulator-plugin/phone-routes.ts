/**
 * The simulator's phone routes: play a contact writing to, calling or voting with the bot, read
 * what the bot sent it, and scan a client's QR code as a person would. The dashboard's chat panel
 * uses them. They need a token for all clients (action-routes.ts has the phones' message actions).
 */
import { z } from 'zod';
import { WakitError, normalizeChatId } from '../index.js';
import type { PluginHttp, PluginHttpRequest } from '../entries/http.js';
import type { SimulatorNetwork } from '../engines/simulator/index.js';
import {
  PhoneParam,
  SimCallPlaced,
  SimCallRequest,
  SimInbox,
  SimScanned,
  SimScanRequest,
  SimSendRequest,
  SimSent,
  SimVoteRequest,
  SimVoted,
} from './schemas.js';

/** The QR code a client shows while it waits for a scan (the core event bus keeps it). */
export type QrOf = (client: string) => string | undefined;

/** `to` of a phone's send or call; by default the number of the named (or default) client. */
function targetOf(
  request: Pick<PluginHttpRequest, 'client'>,
  body: { to?: string | undefined; client?: string | undefined },
): string {
  if (body.to !== undefined) return normalizeChatId(body.to, 'to');
  const client = request.client(body.client);
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

export function phoneRoutes(
  http: Pick<PluginHttp, 'route'>,
  simulator: SimulatorNetwork,
  qrOf: QrOf,
): void {
  const params = z.object({ number: PhoneParam }).strict();
  http.route({
    method: 'POST',
    path: '/phones/:number/messages',
    operationId: 'simulatorSend',
    summary:
      "Simulator: the phone {number} sends a text, an image, a location, a poll or contact cards (to a client's number by default)",
    allClients: true,
    params,
    body: SimSendRequest,
    responses: { 201: { description: 'Sent', schema: SimSent } },
    errors: [400, 401, 403, 404, 409, 415],
    async handler(request) {
      const { params: p, body } = request;
      const to = targetOf(request, body);
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
                    ...(body.image.filename !== undefined ? { filename: body.image.filename } : {}),
                    ...(body.text !== undefined ? { caption: body.text } : {}),
                  },
                  quoted,
                )
              : await phone.send(to, body.text ?? '', quoted);
      return { status: 201, body: { id: sent.id } };
    },
  });
  http.route({
    method: 'POST',
    path: '/phones/:number/calls',
    operationId: 'simulatorCall',
    summary: "Simulator: the phone {number} calls (a client's number by default)",
    allClients: true,
    params,
    body: SimCallRequest,
    responses: { 201: { description: 'Ringing (or already rejected)', schema: SimCallPlaced } },
    errors: [400, 401, 403, 404, 409, 415],
    handler(request) {
      const { params: p, body } = request;
      const to = targetOf(request, body);
      const call = simulator
        .phone(p.number)
        .call(to, body.video !== undefined ? { video: body.video } : {});
      return { status: 201, body: { id: call.id, to: call.to, state: call.state } };
    },
  });
  http.route({
    method: 'GET',
    path: '/phones/:number/inbox',
    operationId: 'simulatorInbox',
    summary: 'Simulator: the last messages the phone {number} received',
    allClients: true,
    params,
    responses: { 200: { description: 'Oldest first', schema: SimInbox } },
    errors: [400, 401, 403],
    handler({ params: p }) {
      const body = simulator.phone(p.number).inbox.map((m) => ({
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
      return { body };
    },
  });
  http.route({
    method: 'POST',
    path: '/phones/:number/votes',
    operationId: 'simulatorVote',
    summary:
      'Simulator: the phone {number} votes on a poll (the bot gets `poll.vote`); no options retracts',
    allClients: true,
    params,
    body: SimVoteRequest,
    responses: { 200: { description: 'Voted', schema: SimVoted } },
    errors: [400, 401, 403, 404, 415],
    async handler({ params: p, body }) {
      await simulator.phone(p.number).vote(body.messageId, body.options);
      return { body: { messageId: body.messageId, options: body.options } };
    },
  });
  http.route({
    method: 'POST',
    path: '/scan',
    operationId: 'simulatorScan',
    summary: "Simulator: a phone scans the client's QR code (links it, as a person would)",
    allClients: true,
    body: SimScanRequest,
    responses: {
      202: { description: 'Scanned; the client goes on to READY', schema: SimScanned },
    },
    errors: [400, 401, 403, 404, 409, 415],
    handler(request) {
      const { body } = request;
      const client = request.client(body.client);
      const qr = client.state === 'SCAN_QR' ? qrOf(client.name) : undefined;
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
      return { status: 202, body: { client: client.name, status: client.state } };
    },
  });
}
