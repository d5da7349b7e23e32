/**
 * The contacts area of the Engine port (`engine.ops.contacts`): people the account knows, numbers,
 * pictures, blocking, WhatsApp's own LID/phone look-up.
 */
import type { ContactInfo } from '../types.js';

/** A person the account knows, as plain data. */
export interface ContactData {
  /** `<digits>@c.us`, or `<digits>@lid` when WhatsApp does not show the number. */
  id: string;
  /** Digits of the phone number, when known. */
  number?: string;
  /** `<digits>@lid`, when known. */
  lid?: string;
  /** The name this account saved the contact under. */
  name?: string;
  /** The name the person set. */
  pushname?: string;
  /** Saved in this account's address book. */
  isMyContact: boolean;
  isBlocked: boolean;
  isBusiness: boolean;
}

export interface ContactOps {
  /** People the account knows: saved contacts and people it has chats with. */
  list(): Promise<ContactData[]>;
  /** A person by `@c.us` or `@lid` id; CHAT_NOT_FOUND when WhatsApp knows no such user. */
  get(id: string): Promise<ContactData>;
  /** The WhatsApp id (`<digits>@c.us`) of a number (digits only), or null when not on WhatsApp. */
  getNumberId(digits: string): Promise<string | null>;
  /** The person's (or group's) profile picture URL; null when there is none or it is hidden. */
  getProfilePictureUrl(id: string): Promise<string | null>;
  /** Blocks or unblocks a person (`@c.us` or `@lid`); CHAT_NOT_FOUND for unknown users. */
  setBlocked(id: string, blocked: boolean): Promise<void>;
  /**
   * A person's LID and phone as WhatsApp's own look-up gives them (`getContactLidAndPhone` in
   * whatsapp-web.js 1.34). `id` is a normalised `@c.us` or `@lid` id. Never throws for an unknown
   * user: `isRegistered: false`.
   */
  resolve(id: string): Promise<ContactInfo>;
}
