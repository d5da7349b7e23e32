/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * From 2.3000.1049007170 `WAWebChatForwardMessage` is no longer preloaded: it is registered, but
 * `require` hands back undefined until its on-demand bundle is loaded, so whatsapp-web.js 1.34.7's
 * `WWebJS.forwardMessage` (Injected/Utils.js:113-128) fails with "Cannot read properties of
 * undefined (reading 'forwardMessages')" (WAHA #2278). The upstream fix (wppconnect wa-js PR #3582,
 * leettech/whatsapp-web.js PR #9) loads the bundle `WAWebForwardMessageFlowLoadable` first.
 *
 * Probe by value: whether `require('WAWebChatForwardMessage').forwardMessages` is a function now.
 * Fix: load the bundle (bounded), and guard `WWebJS.forwardMessage` so a forward after a reload
 * loads it again before whatsapp-web.js's own code runs.
 */
export const forwardBundle: CompatFix = {
  id: 'forward-bundle',
  summary:
    'the forward module is registered but not loaded until its bundle is: every forward fails',
  upstream: [
    'https://github.com/devlikeapro/waha/issues/2278',
    'https://github.com/wppconnect-team/wa-js/pull/3582',
    'https://github.com/leettech/whatsapp-web.js/pull/9',
  ],
  dropWhen: 'whatsapp-web.js loads WAWebForwardMessageFlowLoadable before forwarding',
  phase: 'ready',
  covers: ['send.forward'],
  probe: () => {
    const w = globalThis as any;
    if (w.__wakitCompat?.forwardBundleLoaded) {
      return { needed: true, detail: 'loaded the forward bundle' };
    }
    let module: any;
    try {
      module = w.require('WAWebChatForwardMessage');
    } catch {
      module = undefined; // not reported: not requirable is what the probe looks for
    }
    if (typeof module?.forwardMessages === 'function') return { needed: false };
    return { needed: true, detail: 'WAWebChatForwardMessage is not loaded' };
  },
  fix: async () => {
    const w = globalThis as any;
    const state = (w.__wakitCompat ??= { hits: {} });
    const api = w.WWebJS;
    if (!api || typeof api.forwardMessage !== 'function') {
      return { applied: false, detail: 'WWebJS.forwardMessage is missing' };
    }
    const loaded = (): boolean => {
      try {
        return typeof w.require('WAWebChatForwardMessage')?.forwardMessages === 'function';
      } catch {
        return false; // not reported: not loaded is the answer
      }
    };
    const load = async (): Promise<boolean> => {
      if (loaded()) return true;
      let bundle: any;
      try {
        bundle = w.require('WAWebForwardMessageFlowLoadable');
      } catch {
        return false; // not reported: no bundle on this build; the fix says "not applied"
      }
      if (typeof bundle?.requireBundle !== 'function') return false;
      const timeout = new Promise((resolve) => setTimeout(resolve, 5_000));
      await Promise.race([bundle.requireBundle(), timeout]);
      state.forwardBundleLoaded = loaded() || undefined;
      return loaded();
    };
    if (!api.forwardMessage.wakit) {
      const original = api.forwardMessage;
      const guarded = async function (this: unknown, ...args: unknown[]) {
        await load();
        return original.apply(this, args);
      };
      (guarded as any).wakit = true;
      api.forwardMessage = guarded;
    }
    if (await load()) return { applied: true, detail: 'forward module loaded' };
    return { applied: false, detail: 'the forward bundle could not be loaded' };
  },
};
