/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * WhatsApp Web syncs on its own clock: a warm profile can finish (`Socket.hasSynced` → true) while
 * whatsapp-web.js 1.34.7 is still inside `inject()`, which listens for `change:hasSynced` only at
 * the end (Client.js:400-410) and never looks at the current value. The event has passed,
 * `onAppStateHasSyncedEvent` never runs, and neither `authenticated` nor `ready` ever comes.
 *
 * The fix is the check whatsapp-web.js lacks, made once its listener is attached (this fix runs
 * right after `inject()`): if the page has synced and nobody has called `onAppStateHasSyncedEvent`,
 * call it, at once, once. From then on the call goes through a guard that lets one call per page
 * load through (the listener fires again on every resync, and whatsapp-web.js would emit READY
 * again each time). A synced call of the page's own that was already on its way to Node when this
 * fix looked is caught there: the binding's Node side lets one call per page load reach
 * whatsapp-web.js (synced-once.ts), and the engine takes READY at most once per page load
 * (wire-client.ts). No timer, no replay: READY once, however slow a handler is.
 */
export const readyRace: CompatFix = {
  id: 'ready-race',
  summary:
    'a warm profile syncs before whatsapp-web.js listens for it: authenticated and ready never come',
  upstream: ['https://github.com/wwebjs/whatsapp-web.js/blob/v1.34.7/src/Client.js#L400-L410'],
  dropWhen:
    'whatsapp-web.js checks Socket.hasSynced when it attaches its change:hasSynced listener',
  phase: 'injected',
  covers: [],
  probe: () => {
    const w = globalThis as any;
    const state = w.__wakitCompat;
    if (state?.hits?.['ready-race']) return { needed: true, detail: 'made the missed synced call' };
    const socket = w.require('WAWebSocketModel').Socket;
    if (socket.hasSynced === true && w.WWebJS === undefined && !state?.syncedCalled) {
      return { needed: true, detail: 'synced before whatsapp-web.js listened' };
    }
    return { needed: false };
  },
  fix: () => {
    const w = globalThis as any;
    const state = (w.__wakitCompat ??= { hits: {} });
    if (!state.syncedGuard) {
      const original = w.onAppStateHasSyncedEvent;
      if (typeof original !== 'function') {
        return { applied: false, detail: 'onAppStateHasSyncedEvent is not exposed' };
      }
      w.onAppStateHasSyncedEvent = function (this: unknown, ...args: unknown[]) {
        if (state.syncedCalled) {
          state.syncedRepeats = (state.syncedRepeats ?? 0) + 1;
          return undefined;
        }
        state.syncedCalled = true;
        return original.apply(this, args);
      };
      state.syncedGuard = true;
    }
    const socket = w.require('WAWebSocketModel').Socket;
    if (socket.hasSynced !== true || w.WWebJS !== undefined || state.syncedCalled) {
      return { applied: true, detail: 'guarding the synced event (one per page load)' };
    }
    state.hits['ready-race'] = (state.hits['ready-race'] ?? 0) + 1;
    void w.onAppStateHasSyncedEvent();
    return { applied: true, detail: 'made the synced call whatsapp-web.js missed' };
  },
};
