import type { ContactData } from '../engines/ports/contacts.js';
import { normalizeChatId, PERSON_KINDS, type ChatKind } from './chat-id.js';
import type { ClientCore } from './client-core.js';
import { readyEngine } from './ready-engine.js';

export type { ContactData } from '../engines/ports/contacts.js';

const PICTURE_KINDS: readonly ChatKind[] = ['user', 'lid', 'group'];

/**
 * Contacts: the part of the SDK client that looks people up and blocks them (directly, not
 * queued; READY only). Ids are phone numbers, `@c.us` or `@lid` ids.
 */
export interface ContactsApi {
  /** Saved contacts and people the account has chats with, sorted by id. */
  getContacts(): Promise<ContactData[]>;
  /** One person; CHAT_NOT_FOUND when WhatsApp knows no such user. */
  getContact(id: string): Promise<ContactData>;
  /** Whether a phone number is on WhatsApp. */
  isRegistered(phone: string): Promise<boolean>;
  /** `<digits>@c.us` of a phone number on WhatsApp, null when it is not on WhatsApp. */
  getNumberId(phone: string): Promise<string | null>;
  /** A person's or group's profile picture URL; null when there is none or it is hidden. */
  getProfilePictureUrl(id: string): Promise<string | null>;
  /** Blocks a person: their messages and calls no longer reach the account. */
  block(id: string): Promise<void>;
  unblock(id: string): Promise<void>;
}

export function contactsApi(core: ClientCore): ContactsApi {
  const person = (id: string): string => normalizeChatId(id, 'id', { allow: PERSON_KINDS });
  const numberId = async (phone: string): Promise<string | null> => {
    const digits = normalizeChatId(phone, 'phone', { allow: ['user'] }).slice(0, -'@c.us'.length);
    return readyEngine(core).getNumberId(digits);
  };
  return {
    async getContacts() {
      const contacts = await readyEngine(core).getContacts();
      return contacts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async getContact(id) {
      return readyEngine(core).getContact(person(id));
    },
    async isRegistered(phone) {
      return (await numberId(phone)) !== null;
    },
    getNumberId: numberId,
    async getProfilePictureUrl(id) {
      return readyEngine(core).getProfilePictureUrl(
        normalizeChatId(id, 'id', { allow: PICTURE_KINDS }),
      );
    },
    async block(id) {
      await readyEngine(core).setBlocked(person(id), true);
    },
    async unblock(id) {
      await readyEngine(core).setBlocked(person(id), false);
    },
  };
}
