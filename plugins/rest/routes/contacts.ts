/**
 * Contacts of a client: `GET /api/v1/contacts` (paged), `/contacts/{id}`,
 * `/contacts/{id}/profile-picture`, `POST /contacts/{id}/block` and `/unblock`, and
 * `GET /api/v1/numbers/{phone}` (is a number on WhatsApp).
 */
import { z } from 'zod';
import { normalizeChatId } from '../../../src/index.js';
import { paginate } from '../../../src/entries/contract.js';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  BlockResult,
  ClientQuery,
  Contact,
  ContactList,
  ContactListQuery,
  NumberLookup,
  ProfilePicture,
  chatIdParam,
} from './chat-schemas.js';

/** A person (`getContact`, block); pictures also of groups; `numbers/{phone}`: a phone user. */
const IdParams = z.object({ id: chatIdParam(['user', 'lid']) }).strict();
const PictureParams = z.object({ id: chatIdParam(['user', 'lid', 'group']) }).strict();
const errors = [400, 401, 403, 404, 409, 502];

export function contactRoutes(rc: RestContext): AnyRoute[] {
  const blockRoute = (blocked: boolean): AnyRoute =>
    defineRoute({
      method: 'POST',
      path: `/api/v1/contacts/{id}/${blocked ? 'block' : 'unblock'}`,
      operationId: blocked ? 'blockContact' : 'unblockContact',
      summary: blocked
        ? 'Block a person: their messages and calls no longer reach the client'
        : 'Unblock a person',
      tag: 'contacts',
      params: IdParams,
      query: ClientQuery,
      responses: { 200: { description: blocked ? 'Blocked' : 'Unblocked', schema: BlockResult } },
      errors,
      async handler(ctx, { params, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        const id = normalizeChatId(params.id, 'id', { allow: ['user', 'lid'] });
        if (blocked) await client.block(id);
        else await client.unblock(id);
        ctx.body = { id, blocked };
      },
    });
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/contacts',
      operationId: 'listContacts',
      summary: 'Saved contacts and people the client has chats with, by id, one page at a time',
      tag: 'contacts',
      query: ContactListQuery,
      responses: { 200: { description: 'One page of contacts', schema: ContactList } },
      errors,
      async handler(ctx, { query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        ctx.body = paginate(await client.getContacts(), (contact) => [contact.id], ['string'], {
          limit: query.limit,
          ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
        });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/contacts/{id}',
      operationId: 'getContact',
      summary: 'One person, by phone number, `@c.us` or `@lid` id',
      tag: 'contacts',
      params: IdParams,
      query: ClientQuery,
      responses: { 200: { description: 'The contact', schema: Contact } },
      errors,
      async handler(ctx, { params, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        ctx.body = await client.getContact(params.id);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/contacts/{id}/profile-picture',
      operationId: 'getProfilePicture',
      summary: "A person's or group's profile picture URL (null when none or hidden)",
      tag: 'contacts',
      params: PictureParams,
      query: ClientQuery,
      responses: { 200: { description: 'The picture URL', schema: ProfilePicture } },
      errors,
      async handler(ctx, { params, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        const id = normalizeChatId(params.id, 'id', { allow: ['user', 'lid', 'group'] });
        ctx.body = { id, url: await client.getProfilePictureUrl(id) };
      },
    }),
    blockRoute(true),
    blockRoute(false),
    defineRoute({
      method: 'GET',
      path: '/api/v1/numbers/{phone}',
      operationId: 'lookUpNumber',
      summary: 'Whether a phone number is on WhatsApp, and its WhatsApp id',
      tag: 'contacts',
      params: z.object({ phone: chatIdParam(['user']) }).strict(),
      query: ClientQuery,
      responses: { 200: { description: 'Registered or not', schema: NumberLookup } },
      errors,
      async handler(ctx, { params, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        const phone = normalizeChatId(params.phone, 'phone', { allow: ['user'] }).slice(0, -5);
        const id = await client.getNumberId(phone);
        ctx.body = { phone, registered: id !== null, id };
      },
    }),
  ];
}
