/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * A newly linked account is shown a "What's new" onboarding modal after `ready`; left
 * unacknowledged, the phone unlinks the companion a few minutes later (`disconnected: LOGOUT`).
 * whatsapp-web.js has no API for it (#3550 is open).
 *
 * The fix watches the page for a dialog (`role="dialog"`) whose text reads like that modal and
 * presses its Continue / OK button: matched by the visible words, not by class names, which change
 * with every build. Only English wording is matched (wakit's Chromium runs in English unless
 * configured otherwise). The probe says "needed" once a modal was acknowledged.
 */
export const onboardingModal: CompatFix = {
  id: 'onboarding-modal',
  summary:
    'an unacknowledged onboarding modal gets the linked device logged out minutes after ready',
  upstream: [
    'https://github.com/wwebjs/whatsapp-web.js/issues/3550',
    'https://github.com/rmyndharis/OpenWA/issues/982',
  ],
  dropWhen: 'whatsapp-web.js acknowledges the onboarding modal itself (#3550)',
  phase: 'injected',
  covers: [],
  probe: () => {
    const hits = (globalThis as any).__wakitCompat?.hits?.['onboarding-modal'] ?? 0;
    if (hits > 0) return { needed: true, detail: `acknowledged the modal ${hits} time(s)` };
    return { needed: null, detail: 'watching: decided when the modal shows' };
  },
  fix: () => {
    const w = globalThis as any;
    const state = (w.__wakitCompat ??= { hits: {} });
    if (state.modalWatch) return { applied: true, detail: 'watching for the modal' };
    const TITLE = /what['’]s new|welcome to whatsapp/i;
    const BUTTON = /^(continue|ok|got it)$/i;
    const scan = (): void => {
      for (const dialog of w.document.querySelectorAll('[role="dialog"]')) {
        if (!TITLE.test(dialog.textContent ?? '')) continue;
        const buttons: any[] = [...dialog.querySelectorAll('button, [role="button"]')];
        const button = buttons.find((b) => BUTTON.test((b.textContent ?? '').trim()));
        if (!button) continue;
        button.click();
        state.hits['onboarding-modal'] = (state.hits['onboarding-modal'] ?? 0) + 1;
      }
    };
    let queued = false;
    new w.MutationObserver(() => {
      if (queued) return;
      queued = true;
      setTimeout(() => {
        queued = false;
        scan();
      }, 500);
    }).observe(w.document.documentElement, { childList: true, subtree: true });
    state.modalWatch = true;
    scan();
    return { applied: true, detail: 'watching for the modal' };
  },
};
