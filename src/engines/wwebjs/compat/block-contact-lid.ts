/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * After the LID migration, whatsapp-web.js 1.34.7's `Contact.block()` / `unblock()`
 * (structures/Contact.js:153-199) fail: they resolve their target through
 * `WAWebBlockContactUtils.getContactToBlockOnlyUseIfNoAssociatedChat`, which WhatsApp Web removed
 * ("… is not a function"); the action now wants a `blockEntryPoint`; and the server refuses a
 * phone-keyed block ("trying to block a pn contact without a chat") because a person's chat is
 * keyed by LID. OpenWA's patch 8 (scripts/patch-wwebjs-block.js, verified live 2026-08-18)
 * resolves the contact to the identity that owns the chat and calls the action with an entry point.
 *
 * Probe by value: the helper is not a function. Fix: the helper again, resolving to the chat-owning
 * identity (LID through `WAWebLidMigrationUtils`, its chat's contact, else the LID contact, else
 * the contact given); `blockContact` gets `blockEntryPoint: 'ChatListBlock'` when the call has none.
 */
export const blockContactLid: CompatFix = {
  id: 'block-contact-lid',
  summary:
    'blocking after the LID migration: the target helper is gone and a phone-keyed block is refused',
  upstream: [
    'https://github.com/rmyndharis/OpenWA/blob/main/scripts/patch-wwebjs-block.js',
    'https://github.com/wwebjs/whatsapp-web.js/blob/v1.34.7/src/structures/Contact.js#L153-L199',
  ],
  dropWhen: 'whatsapp-web.js blocks through the chat-owning identity with an entry point',
  phase: 'injected',
  covers: [],
  probe: () => {
    const utils = (globalThis as any).require('WAWebBlockContactUtils');
    const helper = utils.getContactToBlockOnlyUseIfNoAssociatedChat;
    if (helper?.wakit) return { needed: true, detail: 'blocking through the chat-owning identity' };
    if (typeof helper === 'function') return { needed: false };
    return { needed: true, detail: 'getContactToBlockOnlyUseIfNoAssociatedChat is gone' };
  },
  fix: () => {
    const w = globalThis as any;
    const utils = w.require('WAWebBlockContactUtils');
    const action = w.require('WAWebBlockContactAction');
    if (typeof action?.blockContact !== 'function') {
      return { applied: false, detail: 'WAWebBlockContactAction.blockContact is missing' };
    }
    const optional = (name: string): any => {
      try {
        return w.require(name);
      } catch {
        return null; // not reported: a module this build lacks is the answer (null)
      }
    };
    const lidOf = (id: unknown): any => {
      const migration = optional('WAWebLidMigrationUtils');
      for (const name of ['toUserLid', 'toLid']) {
        try {
          if (typeof migration?.[name] === 'function') return migration[name](id) ?? null;
        } catch {
          // not reported: no LID mapping for this account is the answer; the next way, or none
        }
      }
      return null;
    };
    if (!utils.getContactToBlockOnlyUseIfNoAssociatedChat?.wakit) {
      const resolve = (contact: any): any => {
        const lid = contact?.id ? lidOf(contact.id) : null;
        if (!lid) return contact;
        const key = String(lid._serialized ?? lid);
        const collections = optional('WAWebCollections');
        const chat = collections?.Chat?.get?.(key);
        return chat?.contact ?? collections?.Contact?.get?.(key) ?? contact;
      };
      resolve.wakit = true;
      utils.getContactToBlockOnlyUseIfNoAssociatedChat = resolve;
    }
    if (!action.blockContact.wakit) {
      const block = action.blockContact;
      const withEntryPoint = function (this: unknown, options: any, ...rest: unknown[]) {
        const given = options && typeof options === 'object' ? options : { contact: options };
        return block.call(this, { blockEntryPoint: 'ChatListBlock', ...given }, ...rest);
      };
      withEntryPoint.wakit = true;
      action.blockContact = withEntryPoint;
    }
    return { applied: true, detail: 'blocking through the chat-owning identity' };
  },
};
