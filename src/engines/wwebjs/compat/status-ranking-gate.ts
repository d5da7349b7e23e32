/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * WhatsApp Web removed `WAWebStatusGatingUtils.canCheckStatusRankingPosterGating` (around
 * 2026-04-30, OpenWA #455); the module stays. The status branch of whatsapp-web.js 1.34.7's
 * `WWebJS.sendMessage` (Injected/Utils.js:537-552, taken when the chat is `status@broadcast`)
 * calls it for the new message's `cannotBeRanked` before anything is posted, so every status send
 * fails with "… canCheckStatusRankingPosterGating is not a function". OpenWA's patch 2
 * (scripts/patch-wwebjs-status.js) calls the helper when present and uses `false` (what it meant
 * before the gating) when not.
 *
 * Probe by value: the helper is not a function on the module. Fix: a stand-in answering `false`;
 * nothing else changes (a build that has the helper keeps its own).
 */
export const statusRankingGate: CompatFix = {
  id: 'status-ranking-gate',
  summary:
    "status sends: WAWebStatusGatingUtils.canCheckStatusRankingPosterGating is gone and whatsapp-web.js's status branch calls it",
  upstream: [
    'https://github.com/rmyndharis/OpenWA/issues/455',
    'https://github.com/rmyndharis/OpenWA/blob/main/scripts/patch-wwebjs-status.js',
    'https://github.com/wwebjs/whatsapp-web.js/blob/v1.34.7/src/util/Injected/Utils.js#L537-L552',
  ],
  dropWhen: 'whatsapp-web.js calls the status ranking gate only when WhatsApp Web has it',
  phase: 'injected',
  covers: [],
  probe: () => {
    const gating = (globalThis as any).require('WAWebStatusGatingUtils');
    const helper = gating?.canCheckStatusRankingPosterGating;
    if (helper?.wakit) return { needed: true, detail: 'the ranking gate answers false' };
    if (typeof helper === 'function') return { needed: false };
    return { needed: true, detail: 'canCheckStatusRankingPosterGating is gone' };
  },
  fix: () => {
    const gating = (globalThis as any).require('WAWebStatusGatingUtils');
    if (!gating) return { applied: false, detail: 'WAWebStatusGatingUtils is missing' };
    const helper = gating.canCheckStatusRankingPosterGating;
    if (typeof helper === 'function' && !helper.wakit) return { applied: false };
    if (!helper?.wakit) {
      const gate = (): boolean => false;
      gate.wakit = true;
      gating.canCheckStatusRankingPosterGating = gate;
    }
    return { applied: true, detail: 'the ranking gate answers false' };
  },
};
