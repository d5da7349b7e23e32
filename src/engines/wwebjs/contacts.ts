/**
 * Contacts on whatsapp-web.js 1.34: `getContacts`, `getContactById`, `getNumberId`,
 * `getProfilePicUrl` (Client.js:1725/1738/2224/2145) and `Contact#block` / `unblock`
 * (structures/Contact.js), mapped to plain data and our error codes.
 */
import { WakitError } from '../../errors/index.js';
import type { ContactData, ContactOps } from '../ports/contacts.js';
import type { Attempt } from './attempt.js';
import { mapSendError } from './map-errors.js';
import { resolveContact } from './operations.js';
import type { ClientLike, ContactLike } from './types.js';

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** A whatsapp-web.js Contact as plain data (null for groups, itself and non-person ids). */
export function toContactData(contact: ContactLike): ContactData | null {
  const id = contact.id._serialized;
  if (contact.isGroup || contact.isMe || !/@(c\.us|lid)$/.test(id)) return null;
  const data: ContactData = {
    id,
    isMyContact: Boolean(contact.isMyContact),
    isBlocked: Boolean(contact.isBlocked),
    isBusiness: Boolean(contact.isBusiness),
  };
  const number = str(contact.number) ?? (id.endsWith('@c.us') ? id.split('@')[0] : undefined);
  if (number && /^\d+$/.test(number)) data.number = number;
  if (id.endsWith('@lid')) data.lid = id;
  const name = str(contact.name);
  if (name) data.name = name;
  const pushname = str(contact.pushname);
  if (pushname) data.pushname = pushname;
  return data;
}

/**
 * People WhatsApp Web knows: saved contacts and people the account has chats with. Contacts that
 * are not on WhatsApp (`isWAContact: false`, address-book entries) are left out.
 */
export async function getContacts(client: ClientLike): Promise<ContactData[]> {
  let contacts: ContactLike[];
  try {
    contacts = await client.getContacts();
  } catch (error) {
    throw mapSendError(error, '*');
  }
  const out: ContactData[] = [];
  const seen = new Set<string>();
  for (const contact of contacts) {
    if (contact.isWAContact === false) continue;
    const data = toContactData(contact);
    if (data && !seen.has(data.id)) {
      seen.add(data.id);
      out.push(data);
    }
  }
  return out;
}

/**
 * `Contact.find` makes a model for any id, so a person is first checked through
 * `getContactLidAndPhone` (both halves undefined: not on WhatsApp → CHAT_NOT_FOUND).
 */
async function findContact(client: ClientLike, id: string): Promise<ContactLike> {
  try {
    const [entry] = await client.getContactLidAndPhone([id]);
    if (!entry?.lid && !entry?.pn) {
      throw new WakitError('CHAT_NOT_FOUND', `${id} is not on WhatsApp`, { details: { id } });
    }
    return await client.getContactById(id);
  } catch (error) {
    throw mapSendError(error, id);
  }
}

export async function getContact(client: ClientLike, id: string): Promise<ContactData> {
  const data = toContactData(await findContact(client, id));
  if (!data) throw new WakitError('CHAT_NOT_FOUND', `${id} is not a person`, { details: { id } });
  return data;
}

export async function getNumberId(client: ClientLike, digits: string): Promise<string | null> {
  try {
    const wid = await client.getNumberId(digits);
    return wid ? wid._serialized : null;
  } catch (error) {
    throw mapSendError(error, `${digits}@c.us`);
  }
}

export async function getProfilePictureUrl(client: ClientLike, id: string): Promise<string | null> {
  try {
    return str(await client.getProfilePicUrl(id)) ?? null;
  } catch (error) {
    throw mapSendError(error, id);
  }
}

export async function setBlocked(client: ClientLike, id: string, blocked: boolean): Promise<void> {
  const contact = await findContact(client, id);
  if (!contact.block || !contact.unblock) {
    throw new WakitError('ENGINE_ERROR', 'this whatsapp-web.js Contact cannot be blocked');
  }
  let done: boolean;
  try {
    done = blocked ? await contact.block() : await contact.unblock();
  } catch (error) {
    throw mapSendError(error, id);
  }
  if (done === false) {
    throw new WakitError('VALIDATION_FAILED', `${id} cannot be blocked (not a person)`, {
      details: { id },
    });
  }
}

/** The contacts area (`engine.ops.contacts`) on the ready attempt's client. */
export function contactOps(ready: () => Attempt): ContactOps {
  return {
    list: async () => getContacts(ready().client),
    get: async (id) => getContact(ready().client, id),
    getNumberId: async (digits) => getNumberId(ready().client, digits),
    getProfilePictureUrl: async (id) => getProfilePictureUrl(ready().client, id),
    setBlocked: async (id, blocked) => setBlocked(ready().client, id, blocked),
    resolve: async (id) => resolveContact(ready().client, id),
  };
}
