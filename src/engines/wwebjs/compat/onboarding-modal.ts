/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * A newly linked account is shown a "What's new" onboarding modal after `ready`; left
 * unacknowledged, the phone unlinks the companion a few minutes later (`disconnected: LOGOUT`).
 * whatsapp-web.js has no API for it (#3550 is open).
 *
 * The modal is a `[role="dialog"][aria-modal="true"]` in the account's language with a Continue or
 * a Close button, so the fix matches structure and roles, never words or class names (both change
 * with the language and every build): a modal dialog with no form field and exactly one button
 * (nobody opens dialogs in a headless bot: the page did) gets that button pressed. A dialog with
 * more buttons (a confirmation: Cancel / OK) or a field is left alone and only counted. The probe
 * says "needed" once a modal was acknowledged.
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
    const scan = (): void => {
      for (const dialog of w.document.querySelectorAll('[role="dialog"][aria-modal="true"]')) {
        if (dialog.__wakitSeen) continue;
        const buttons: any[] = [...dialog.querySelectorAll('button, [role="button"]')];
        const fields = dialog.querySelectorAll('input, textarea, select, [contenteditable="true"]');
        if (buttons.length === 0) continue; // still rendering: the observer looks again
        if (buttons.length > 1 || fields.length > 0) {
          dialog.__wakitSeen = true;
          state.modalsLeft = (state.modalsLeft ?? 0) + 1;
          continue;
        }
        buttons[0].click();
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
