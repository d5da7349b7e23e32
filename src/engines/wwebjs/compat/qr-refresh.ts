/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * After a few QR codes WhatsApp Web stops showing new ones (`UNPAIRED_IDLE`) until the QR is
 * refreshed. whatsapp-web.js 1.34.7 refreshes from Node, in its exposed
 * `onAuthAppStateChangedEvent` (Client.js:281-293): `window.require('WAWebCmd').Cmd.refreshQR()`
 * runs where `window` is undefined (WAHA #1990), and on 2.3000.1048901417 `Cmd.refreshQR` is gone
 * as well ("Cmd.refreshQR is not a function"). Either way no new QR comes and linking fails.
 *
 * The fix refreshes in the page: on `UNPAIRED_IDLE` (not while a pairing code is shown, as
 * whatsapp-web.js skips it then) it calls the refresh this build has, chosen by value:
 * `WAWebLaunchSocketUtils.refreshQR` (what 1.34.7's own `cancelPairingCode` calls), else
 * `Cmd.refreshQR`. Only an idle QR can tell it is needed: a guard that counts its refreshes.
 */
export const qrRefresh: CompatFix = {
  id: 'qr-refresh',
  summary:
    'an idle QR is never refreshed (whatsapp-web.js calls window from Node; Cmd.refreshQR gone): linking by QR fails',
  upstream: [
    'https://github.com/devlikeapro/waha/issues/1990',
    'https://github.com/wwebjs/whatsapp-web.js/blob/v1.34.7/src/Client.js#L281-L293',
  ],
  dropWhen: 'whatsapp-web.js refreshes the QR in the page with a refresh the build still has',
  phase: 'injected',
  covers: [],
  probe: () => {
    const hits = (globalThis as any).__wakitCompat?.hits?.['qr-refresh'] ?? 0;
    if (hits > 0) return { needed: true, detail: `refreshed an idle QR ${hits} time(s)` };
    return { needed: null, detail: 'decided when a QR goes idle' };
  },
  fix: () => {
    const w = globalThis as any;
    const state = (w.__wakitCompat ??= { hits: {} });
    const refreshes = (): Array<() => unknown> => {
      const found: Array<() => unknown> = [];
      for (const [name, pick] of [
        ['WAWebLaunchSocketUtils', (m: any) => m],
        ['WAWebCmd', (m: any) => m?.Cmd],
      ] as const) {
        try {
          const owner = pick(w.require(name));
          if (typeof owner?.refreshQR === 'function') found.push(() => owner.refreshQR());
        } catch {
          // not reported: not on this build is the answer; the next one
        }
      }
      return found;
    };
    if (refreshes().length === 0) return { applied: false, detail: 'no QR refresh on this build' };
    if (state.qrRefreshGuard) return { applied: true, detail: 'refreshing idle QR codes' };
    w.require('WAWebSocketModel').Socket.on('change:state', (_socket: unknown, value: string) => {
      if (value !== 'UNPAIRED_IDLE' || w.codeInterval) return;
      const [refresh] = refreshes();
      if (!refresh) return;
      state.hits['qr-refresh'] = (state.hits['qr-refresh'] ?? 0) + 1;
      refresh();
    });
    state.qrRefreshGuard = true;
    return { applied: true, detail: 'refreshing idle QR codes' };
  },
};
