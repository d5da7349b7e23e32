/**
 * Contacts (docs/chats.md#contacts): looking people up, numbers, profile pictures, blocking. Direct
 * (READY, not queued). Ids are phone numbers, `@c.us` or `@lid` ids.
 */
import { z } from 'zod';
import { PERSON_KINDS, type ChatKind } from '../client/chat-id.js';
import { paginate } from '../client/pagination.js';
import { chatIdInput, chatIdParam } from './chat-id-schemas.js';
import { defineCapability } from './define.js';
import { cursorParam, pageLimitParam } from './paging.js';

const PICTURE_KINDS: readonly ChatKind[] = ['user', 'lid', 'group'];
const errors = [400, 401, 403, 404, 409, 502] as const;
const personInput = z.object({ id: chatIdInput(PERSON_KINDS, 'id') }).strict();
const phoneInput = z.object({ phone: chatIdInput(['user'], 'phone') }).strict();
const personParams = z.object({ id: chatIdParam(PERSON_KINDS) }).strict();
/** `<digits>@c.us` → `<digits>`. */
const digitsOf = (id: string): string => id.slice(0, -'@c.us'.length);

const Contact = z
  .object({
    id: z.string(),
    number: z.string().optional(),
    lid: z.string().optional(),
    name: z.string().optional(),
    pushname: z.string().optional(),
    isMyContact: z.boolean(),
    isBlocked: z.boolean(),
    isBusiness: z.boolean(),
  })
  .strict();
const BlockResult = z.object({ id: z.string(), blocked: z.boolean() }).strict();

function blocking(blocked: boolean) {
  return defineCapability({
    name: blocked ? 'contacts.block' : 'contacts.unblock',
    effect: blocked ? 'destructive' : 'additive',
    summary: blocked
      ? 'Block a person: their messages and calls no longer reach the account'
      : 'Unblock a person',
    docs: 'docs/chats.md#contacts',
    mode: 'direct',
    input: personInput,
    args: ['id'],
    errors: ['CHAT_NOT_FOUND'],
    run: (engine, { id }) => engine.ops.contacts.setBlocked(id, blocked),
    http: {
      method: 'POST',
      path: `/contacts/{id}/${blocked ? 'block' : 'unblock'}`,
      operationId: blocked ? 'blockContact' : 'unblockContact',
      summary: blocked
        ? 'Block a person: their messages and calls no longer reach the client'
        : 'Unblock a person',
      tag: 'contacts',
      params: personParams,
      toInput: ({ params }) => ({ id: params.id as string }),
      status: 200,
      response: {
        description: blocked ? 'Blocked' : 'Unblocked',
        schema: BlockResult,
        component: 'BlockResult',
      },
      toBody: (_result, { id }) => ({ id, blocked }),
      errors,
    },
  });
}

export const contacts = {
  list: defineCapability({
    name: 'contacts.list',
    summary: 'Saved contacts and people the account has chats with, sorted by id',
    docs: 'docs/chats.md#contacts',
    mode: 'direct',
    input: z.object({}).strict(),
    args: [],
    errors: [],
    run: async (engine) => {
      const all = await engine.ops.contacts.list();
      return all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    http: {
      method: 'GET',
      path: '/contacts',
      operationId: 'listContacts',
      summary: 'Saved contacts and people the client has chats with, by id, one page at a time',
      tag: 'contacts',
      query: z.object({ limit: pageLimitParam, cursor: cursorParam }).strict(),
      toInput: () => ({}),
      status: 200,
      response: {
        description: 'One page of contacts',
        schema: z.object({ items: z.array(Contact), nextCursor: z.string().nullable() }).strict(),
        component: 'ContactList',
        componentDescription:
          'One page, by id; pass `nextCursor` as `cursor` for the next (null: last page).',
      },
      toBody: (all, _input, { query }) =>
        paginate(all, (contact) => [contact.id], ['string'], {
          limit: query.limit as number,
          ...(query.cursor !== undefined ? { cursor: query.cursor as string } : {}),
        }),
      errors,
    },
  }),
  get: defineCapability({
    name: 'contacts.get',
    summary: 'One person; CHAT_NOT_FOUND when WhatsApp knows no such user',
    docs: 'docs/chats.md#contacts',
    mode: 'direct',
    input: personInput,
    args: ['id'],
    errors: ['CHAT_NOT_FOUND'],
    run: (engine, { id }) => engine.ops.contacts.get(id),
    http: {
      method: 'GET',
      path: '/contacts/{id}',
      operationId: 'getContact',
      summary: 'One person, by phone number, `@c.us` or `@lid` id',
      tag: 'contacts',
      params: personParams,
      toInput: ({ params }) => ({ id: params.id as string }),
      status: 200,
      response: { description: 'The contact', schema: Contact, component: 'Contact' },
      errors,
    },
  }),
  isRegistered: defineCapability({
    name: 'contacts.isRegistered',
    effect: 'read',
    summary: 'Whether a phone number is on WhatsApp',
    docs: 'docs/chats.md#contacts',
    mode: 'direct',
    input: phoneInput,
    args: ['phone'],
    errors: [],
    run: async (engine, { phone }) =>
      (await engine.ops.contacts.getNumberId(digitsOf(phone))) !== null,
  }),
  getNumberId: defineCapability({
    name: 'contacts.getNumberId',
    summary: '`<digits>@c.us` of a phone number on WhatsApp, null when it is not on WhatsApp',
    docs: 'docs/chats.md#contacts',
    mode: 'direct',
    input: phoneInput,
    args: ['phone'],
    errors: [],
    run: (engine, { phone }) => engine.ops.contacts.getNumberId(digitsOf(phone)),
    http: {
      method: 'GET',
      path: '/numbers/{phone}',
      operationId: 'lookUpNumber',
      summary: 'Whether a phone number is on WhatsApp, and its WhatsApp id',
      tag: 'contacts',
      params: z.object({ phone: chatIdParam(['user']) }).strict(),
      toInput: ({ params }) => ({ phone: params.phone as string }),
      status: 200,
      response: {
        description: 'Registered or not',
        schema: z
          .object({ phone: z.string(), registered: z.boolean(), id: z.string().nullable() })
          .strict(),
        component: 'NumberLookup',
      },
      toBody: (id, { phone }) => ({ phone: digitsOf(phone), registered: id !== null, id }),
      errors,
    },
  }),
  getProfilePictureUrl: defineCapability({
    name: 'contacts.getProfilePictureUrl',
    summary: "A person's or group's profile picture URL; null when there is none or it is hidden",
    docs: 'docs/chats.md#contacts',
    mode: 'direct',
    input: z.object({ id: chatIdInput(PICTURE_KINDS, 'id') }).strict(),
    args: ['id'],
    errors: ['CHAT_NOT_FOUND'],
    run: (engine, { id }) => engine.ops.contacts.getProfilePictureUrl(id),
    http: {
      method: 'GET',
      path: '/contacts/{id}/profile-picture',
      operationId: 'getProfilePicture',
      summary: "A person's or group's profile picture URL (null when none or hidden)",
      tag: 'contacts',
      params: z.object({ id: chatIdParam(PICTURE_KINDS) }).strict(),
      toInput: ({ params }) => ({ id: params.id as string }),
      status: 200,
      response: {
        description: 'The picture URL',
        schema: z.object({ id: z.string(), url: z.string().nullable() }).strict(),
        component: 'ProfilePicture',
        componentDescription: '`url` is null when there is no picture or its owner hides it.',
      },
      toBody: (url, { id }) => ({ id, url }),
      errors,
    },
  }),
  block: blocking(true),
  unblock: blocking(false),
};
