/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * A warm profile can finish syncing (`Socket.hasSynced` → true) while whatsapp-web.js 1.34.7 is
 * still inside `inject()`: it listens for `change:hasSynced` only at the end (Client.js:400-410),
 * so the event has passed, `onAppStateHasSyncedEvent` never runs, and neither `authenticated` nor
 * `ready` ever comes (the start times out and retries, forever on a fast machine).
 *
 * Probe: after the injection, `hasSynced` is already true and whatsapp-web.js's code is not
 * loaded. Fix: note every call of `onAppStateHasSyncedEvent` from now on; if none came and the
 * code is still not loaded after a grace period (a call just before we looked would have loaded
 * it by then), make the call whatsapp-web.js missed, once.
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
    if (state?.hits?.['ready-race']) return { needed: true, detail: 'replayed the synced event' };
    const socket = w.require('WAWebSocketModel').Socket;
    if (socket.hasSynced === true && w.WWebJS === undefined && !state?.syncedCalled) {
      return { needed: true, detail: 'synced before whatsapp-web.js listened' };
    }
    return { needed: false };
  },
  fix: async () => {
    const w = globalThis as any;
    const state = (w.__wakitCompat ??= { hits: {} });
    if (!state.syncedGuard) {
      const original = w.onAppStateHasSyncedEvent;
      if (typeof original !== 'function') {
        return { applied: false, detail: 'onAppStateHasSyncedEvent is not exposed' };
      }
      w.onAppStateHasSyncedEvent = function (this: unknown, ...args: unknown[]) {
        state.syncedCalled = true;
        return original.apply(this, args);
      };
      state.syncedGuard = true;
    }
    const missed = (): boolean =>
      w.require('WAWebSocketModel').Socket.hasSynced === true &&
      w.WWebJS === undefined &&
      !state.syncedCalled;
    if (!missed()) return { applied: true, detail: 'nothing missed' };
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (!missed()) return { applied: true, detail: 'whatsapp-web.js saw the synced event itself' };
    state.hits['ready-race'] = (state.hits['ready-race'] ?? 0) + 1;
    void w.onAppStateHasSyncedEvent();
    return { applied: true, detail: 'replayed the synced event whatsapp-web.js missed' };
  },
};
