import type { Managers } from '../capabilities/registry.js';

export type { ContactData } from '../engines/ports/contacts.js';

/** Contacts, `client.contacts`: the manager built from src/capabilities/contacts.ts. */
export type ContactsApi = Managers['contacts'];
