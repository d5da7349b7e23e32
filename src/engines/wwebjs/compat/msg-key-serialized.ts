/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * July 2026 (WhatsApp Web ≥ 2.3000.1042401057): `WAWebMsgKey` keeps its serialized id in a
 * minified field (`$1` today) instead of `_serialized`; wids keep `_serialized`. whatsapp-web.js
 * 1.34.7 reads `key._serialized` in the page and on the Node side, so message ids, acks, quotes,
 * `downloadMedia` and `getChats` break (the last two as IndexedDB `DataError`s shown as `r: r`).
 *
 * Probe (by value): build a key from known parts and look for the expected serialized string in an
 * own `_serialized` field. Fix: find the field holding that string (by value, never by name: the
 * minifier picks it), read it through a `_serialized` accessor on the prototype, and make what
 * crosses to Node carry it (only own fields cross, by JSON):
 * - keys serialized by JSON (a reaction's `msgKey` and `parentMsgKey`, a poll vote's
 *   `parentMsgKey` and `parentMessage`: Client.js's `onReaction` / `onPollVoteEvent`, 1.34.7
 *   lines 1166-1236) get a `toJSON` that adds `_serialized` (what #201847 does in Reaction.js,
 *   and wa-js 4.4.1 #3488 by migrating the keys in place);
 * - message models (`WWebJS.getMessageModel`, whose `Object.assign` copy of the id drops
 *   accessors) get an own `_serialized`. `WWebJS` is made only once synced (LoadUtils in
 *   `onAppStateHasSyncedEvent`), after this fix's first run and before the listeners that emit
 *   messages: the fix then waits for `getMessageModel` to be assigned and patches it as it is, so
 *   no message crosses unpatched before READY.
 * Node-side fallback: serialized-id.ts rebuilds an id from its parts when `_serialized` is missing.
 */
export const msgKeySerialized: CompatFix = {
  id: 'msg-key-serialized',
  summary:
    'message keys keep their serialized id in a minified field instead of _serialized: ids, acks, quotes, downloads and getChats break',
  upstream: [
    'https://github.com/wwebjs/whatsapp-web.js/issues/201830',
    'https://github.com/wwebjs/whatsapp-web.js/issues/201833',
    'https://github.com/wwebjs/whatsapp-web.js/pull/201832',
    'https://github.com/wwebjs/whatsapp-web.js/pull/201847',
    'https://github.com/wwebjs/whatsapp-web.js/pull/201848',
    'https://github.com/avoylenko/wwebjs-api/pull/150',
    'https://github.com/wppconnect-team/wa-js/pull/3484',
    'https://github.com/wppconnect-team/wa-js/pull/3488',
  ],
  dropWhen:
    'whatsapp-web.js releases a version that reads message keys without _serialized (#201848 or its successor)',
  phase: 'injected',
  covers: ['ids.serialize'],
  probe: () => {
    const w = globalThis as any;
    const wid = w.require('WAWebWidFactory').createWid('10000000000@c.us');
    const MsgKey = w.require('WAWebMsgKey');
    const key = new MsgKey({ from: wid, to: wid, id: 'WAKITPROBE0', selfDir: 'out' });
    const own = Object.getOwnPropertyDescriptor(key, '_serialized');
    if (own && own.value === 'true_10000000000@c.us_WAKITPROBE0') return { needed: false };
    return { needed: true, detail: 'a message key built from known parts has no own _serialized' };
  },
  fix: () => {
    const w = globalThis as any;
    const expected = 'true_10000000000@c.us_WAKITPROBE0';
    const wid = w.require('WAWebWidFactory').createWid('10000000000@c.us');
    const MsgKey = w.require('WAWebMsgKey');
    const key = new MsgKey({ from: wid, to: wid, id: 'WAKITPROBE0', selfDir: 'out' });
    let how = 'native';
    if (key._serialized !== expected) {
      const alias = Object.keys(key).find((name) => key[name] === expected);
      if (!alias && String(key) !== expected) {
        return { applied: false, detail: 'no field of a message key holds its serialized id' };
      }
      how = alias ? `reads ${alias}` : 'reads toString()';
      Object.defineProperty(MsgKey.prototype, '_serialized', {
        configurable: true,
        get(this: any) {
          return alias ? this[alias] : String(this);
        },
        set(this: any, value: unknown) {
          Object.defineProperty(this, '_serialized', {
            value,
            writable: true,
            enumerable: true,
            configurable: true,
          });
        },
      });
      if (
        new MsgKey({ from: wid, to: wid, id: 'WAKITPROBE0', selfDir: 'out' })._serialized !==
        expected
      ) {
        return { applied: false, detail: 'the _serialized accessor did not take' };
      }
      // Keys crossing to Node by JSON (reactions, poll votes) carry their _serialized.
      const toJSON = MsgKey.prototype.toJSON;
      if (!toJSON?.wakit) {
        const withSerialized = function (this: any) {
          const plain = typeof toJSON === 'function' ? toJSON.call(this) : { ...this };
          if (!plain || typeof plain !== 'object' || '_serialized' in plain) return plain;
          return { ...plain, _serialized: this._serialized };
        };
        (withSerialized as any).wakit = true;
        Object.defineProperty(MsgKey.prototype, 'toJSON', {
          configurable: true,
          writable: true,
          value: withSerialized,
        });
      }
      how += '; keys carry _serialized in JSON';
    }
    // Models reach Node by value (own fields only): give their key an own _serialized.
    const patch = (getMessageModel: any): any => {
      if (typeof getMessageModel !== 'function' || getMessageModel.wakit) return getMessageModel;
      const patched = function (this: unknown, message: any) {
        const model = getMessageModel.call(this, message);
        if (
          model?.id &&
          typeof model.id === 'object' &&
          !Object.prototype.hasOwnProperty.call(model.id, '_serialized') &&
          message?.id?._serialized
        ) {
          model.id = Object.assign({}, model.id, { _serialized: message.id._serialized });
        }
        return model;
      };
      (patched as any).wakit = true;
      return patched;
    };
    /** `WWebJS.getMessageModel` patched as soon as whatsapp-web.js assigns it. */
    const trapModel = (api: any): void => {
      let current = patch(api.getMessageModel);
      Object.defineProperty(api, 'getMessageModel', {
        configurable: true,
        enumerable: true,
        get: () => current,
        set: (value: unknown) => (current = patch(value)),
      });
    };
    const api = w.WWebJS;
    if (api && typeof api === 'object') {
      trapModel(api);
      how += '; message models carry _serialized';
    } else if (!Object.getOwnPropertyDescriptor(w, 'WWebJS')?.get) {
      // Not synced yet: LoadUtils makes `window.WWebJS = {}` later (Client.js:327).
      let held: unknown;
      Object.defineProperty(w, 'WWebJS', {
        configurable: true,
        enumerable: true,
        get: () => held,
        set: (value: unknown) => {
          held = value;
          if (value && typeof value === 'object') trapModel(value);
        },
      });
      how += '; message models will carry _serialized (waiting for WWebJS)';
    }
    return { applied: true, detail: how };
  },
};
