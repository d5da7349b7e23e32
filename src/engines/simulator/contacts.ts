/**
 * What an account of the virtual network knows of people: saved names, blocked people, its own
 * profile picture and who may see it; and the look-ups an engine makes from an account's view
 * (contacts, registered numbers, pictures, blocking).
 */
import { WakitError } from '../../errors/index.js';
import type { ContactData } from '../ports/contacts.js';
import type { SimAccount } from './account.js';
import { GROUP_SUFFIX, LID_SUFFIX } from './ids.js';

/** Who sees a profile picture (WhatsApp's privacy setting). */
export type SimPictureVisibility = 'everyone' | 'contacts' | 'nobody';

/** Per account: names it saved contacts under, people it blocked, its profile picture. */
export class SimAddressBook {
  /** Number (digits) → the name it is saved under. */
  readonly names = new Map<string, string>();
  /** `@c.us` ids of blocked people: their private messages and calls do not reach this account. */
  readonly blocked = new Set<string>();
  picture: { url: string; visibleTo: SimPictureVisibility } | null = null;
}

/** What the look-ups need of the network. */
export interface SimContactDirectory {
  person(id: string): SimAccount | undefined;
}

/** `other` as `viewer` sees them: by number unless it is hidden behind the LID. */
export function contactOf(viewer: SimAccount, other: SimAccount): ContactData {
  const visible = other.phoneVisibleTo(viewer);
  const contact: ContactData = {
    id: visible ? other.id : other.lid,
    lid: other.lid,
    pushname: other.pushname,
    isMyContact: viewer.contacts.has(other.number),
    isBlocked: viewer.book.blocked.has(other.id),
    isBusiness: false,
  };
  if (visible) contact.number = other.number;
  const name = viewer.book.names.get(other.number);
  if (name !== undefined) contact.name = name;
  return contact;
}

function requirePerson(directory: SimContactDirectory, id: string): SimAccount {
  const person = directory.person(id);
  if (!person) {
    throw new WakitError('CHAT_NOT_FOUND', `${id} is not on WhatsApp`, { details: { id } });
  }
  return person;
}

/** Saved contacts and the people `viewer` has chats with (not itself), by id. */
export function listContacts(directory: SimContactDirectory, viewer: SimAccount): ContactData[] {
  const people = new Map<string, SimAccount>();
  for (const number of viewer.contacts) {
    const person = directory.person(`${number}@c.us`);
    if (person) people.set(person.id, person);
  }
  for (const chat of viewer.chats.all()) {
    if (!chat.key.endsWith('@c.us')) continue;
    const person = directory.person(chat.key);
    if (person) people.set(person.id, person);
  }
  for (const id of viewer.book.blocked) {
    const person = directory.person(id);
    if (person) people.set(person.id, person);
  }
  people.delete(viewer.id);
  return [...people.values()].map((person) => contactOf(viewer, person));
}

export function getContact(
  directory: SimContactDirectory,
  viewer: SimAccount,
  id: string,
): ContactData {
  return contactOf(viewer, requirePerson(directory, id));
}

/** `<digits>@c.us` when the number has a WhatsApp account on the network, else null. */
export function numberId(directory: SimContactDirectory, digits: string): string | null {
  return directory.person(`${digits}@c.us`)?.id ?? null;
}

/** The picture URL when `owner` lets `viewer` see it. */
export function pictureFor(viewer: SimAccount, owner: SimAccount): string | null {
  const picture = owner.book.picture;
  if (!picture) return null;
  if (owner === viewer || picture.visibleTo === 'everyone') return picture.url;
  if (picture.visibleTo === 'contacts' && owner.contacts.has(viewer.number)) return picture.url;
  return null;
}

export function profilePictureUrl(
  directory: SimContactDirectory,
  viewer: SimAccount,
  id: string,
): string | null {
  if (id.endsWith(GROUP_SUFFIX) || !(id.endsWith('@c.us') || id.endsWith(LID_SUFFIX))) {
    return null; // groups and channels have no pictures in the simulator
  }
  const owner = directory.person(id);
  return owner ? pictureFor(viewer, owner) : null;
}

export function setBlocked(
  directory: SimContactDirectory,
  viewer: SimAccount,
  id: string,
  blocked: boolean,
): void {
  const person = requirePerson(directory, id);
  if (person === viewer) {
    throw new WakitError('VALIDATION_FAILED', 'an account cannot block itself', {
      details: { id },
    });
  }
  if (blocked) viewer.book.blocked.add(person.id);
  else viewer.book.blocked.delete(person.id);
}
