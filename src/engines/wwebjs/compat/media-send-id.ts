/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * 2026-09-17 builds: the media prep result (`WWebJS.processMediaData`) carries an internal id
 * (`__x_id`); whatsapp-web.js spreads it into the outgoing message after the message's own id, so
 * the Msg model has no id and every media send fails with "Data passed to getter must include an
 * id property (it's how we memoize) but got undefined".
 *
 * Only a prep can show it (a probe cannot prepare media for free), so the fix is a guard: the prep
 * result is handed to whatsapp-web.js behind a view that hides its own `id`/`__x_id` from the
 * spread (and from its `toJSON()` copy); WhatsApp Web's model itself is not changed. The guard
 * counts what it hid: the probe says "needed" once it hid something, "not known yet" before.
 */
export const mediaSendId: CompatFix = {
  id: 'media-send-id',
  summary:
    "the media prep result carries an id that clobbers the outgoing message's own: every media send fails",
  upstream: [
    'https://github.com/wwebjs/whatsapp-web.js/issues/201921',
    'https://github.com/wwebjs/whatsapp-web.js/issues/201922',
    'https://github.com/wwebjs/whatsapp-web.js/pull/201923',
  ],
  dropWhen: 'whatsapp-web.js ships #201923 (or drops the prep id before the spread itself)',
  phase: 'ready',
  covers: ['send.media'],
  probe: () => {
    const hits = (globalThis as any).__wakitCompat?.hits?.['media-send-id'] ?? 0;
    if (hits > 0) return { needed: true, detail: `hid the prep result's id in ${hits} send(s)` };
    return { needed: null, detail: 'decided by the first media send' };
  },
  fix: () => {
    const w = globalThis as any;
    const state = (w.__wakitCompat ??= { hits: {} });
    const api = w.WWebJS;
    if (!api || typeof api.processMediaData !== 'function') {
      return { applied: false, detail: 'WWebJS.processMediaData is missing' };
    }
    if (api.processMediaData.wakit) return { applied: true, detail: 'guarding media sends' };
    const HIDDEN = new Set(['id', '__x_id']);
    const count = (): void => {
      state.hits['media-send-id'] = (state.hits['media-send-id'] ?? 0) + 1;
    };
    const original = api.processMediaData;
    const hides = (target: object, k: string | symbol): boolean =>
      HIDDEN.has(String(k)) && Reflect.getOwnPropertyDescriptor(target, k)?.configurable !== false;
    const guarded = async function (this: unknown, ...args: unknown[]) {
      const data = await original.apply(this, args);
      if (!data || typeof data !== 'object') return data;
      const own = Reflect.ownKeys(data).some((k) => hides(data, k));
      const json = typeof data.toJSON === 'function' ? data.toJSON() : null;
      const copied = !!json && Reflect.ownKeys(json).some((k) => HIDDEN.has(String(k)));
      if (!own && !copied) return data; // this build's prep result is harmless: untouched
      count();
      return new Proxy(data, {
        ownKeys: (target) => Reflect.ownKeys(target).filter((k) => !hides(target, k)),
        getOwnPropertyDescriptor: (target, k) =>
          hides(target, k) ? undefined : Reflect.getOwnPropertyDescriptor(target, k),
        get: (target, k, receiver) => {
          const value = Reflect.get(target, k, receiver);
          if (k !== 'toJSON' || typeof value !== 'function') return value;
          return function (this: unknown, ...a: unknown[]) {
            const copy = value.apply(target, a);
            if (copy && typeof copy === 'object') for (const name of HIDDEN) delete copy[name];
            return copy;
          };
        },
      });
    };
    (guarded as any).wakit = true;
    api.processMediaData = guarded;
    return { applied: true, detail: 'guarding media sends' };
  },
};
