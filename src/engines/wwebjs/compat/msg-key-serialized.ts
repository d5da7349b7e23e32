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
 * minifier picks it), read it through a `_serialized` accessor on the prototype, and give the
 * message models crossing to Node (`WWebJS.getMessageModel`, copied by value) an own
 * `_serialized`.
 */
export const msgKeySerialized: CompatFix = {
  id: 'msg-key-serialized',
  summary:
    'message keys keep their serialized id in a minified field instead of _serialized: ids, acks, quotes, downloads and getChats break',
  upstream: [
    'https://github.com/wwebjs/whatsapp-web.js/issues/201830',
    'https://github.com/wwebjs/whatsapp-web.js/issues/201833',
    'https://github.com/wwebjs/whatsapp-web.js/pull/201848',
    'https://github.com/avoylenko/wwebjs-api/pull/150',
    'https://github.com/wppconnect-team/wa-js/pull/3484',
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
    }
    // Models reach Node by value (own fields only): give their key an own _serialized.
    const api = w.WWebJS;
    if (api && typeof api.getMessageModel === 'function' && !api.getMessageModel.wakit) {
      const original = api.getMessageModel;
      const patched = function (this: unknown, message: any) {
        const model = original.call(this, message);
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
      api.getMessageModel = patched;
      how += '; message models carry _serialized';
    }
    return { applied: true, detail: how };
  },
};
