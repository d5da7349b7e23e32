/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * `WAWebSendStatusMsgAction.sendStatusMediaMsgAction` now takes one options object
 * `{ mediaMsgData, beforeSend, funnelContext }` (the bundles before and after are quoted in
 * whatsapp-web.js #201807, 2026-07-01). whatsapp-web.js 1.34.7's status branch calls it
 * positionally, `(msg, mediaUpdate)` (Injected/Utils.js:565-571): the page reads
 * `undefined.id` and every image or video status fails with "Cannot read properties of undefined
 * (reading 'id')"; text statuses are not affected. Upstream: whatsapp-web.js PR #201816 (open)
 * builds the data itself and calls the new signature; OpenWA's patch 2 (second part,
 * scripts/patch-wwebjs-status.js) adopts it.
 *
 * The two signatures carry the same two things: the old second argument was called with the
 * page's own Msg once its media prep was done, exactly where the new `beforeSend` is. So the fix
 * turns a positional call into the options object, `mediaMsgData` the message's plain data
 * (`serialize()`, not the model: #201807) and `beforeSend` whatsapp-web.js's own `mediaUpdate`
 * (which puts the uploaded medium on that Msg). The page catches a failing `beforeSend` and
 * resolves `ERROR_UPLOAD` having posted nothing, which 1.34.7 ignores: the guard turns an `ERROR_*`
 * result into an error, so a status that was not posted is not reported as sent.
 *
 * Probe by value: the action's arity (one parameter: the options contract; two before), as
 * `group-description-options` reads the description job's.
 */
export const statusMediaOptions: CompatFix = {
  id: 'status-media-options',
  summary:
    "sendStatusMediaMsgAction takes an options object: whatsapp-web.js's positional call fails, no image or video status is posted",
  upstream: [
    'https://github.com/wwebjs/whatsapp-web.js/issues/201807',
    'https://github.com/wwebjs/whatsapp-web.js/pull/201816',
    'https://github.com/rmyndharis/OpenWA/blob/main/scripts/patch-wwebjs-status.js',
  ],
  dropWhen: 'whatsapp-web.js calls sendStatusMediaMsgAction with the options object (PR #201816)',
  phase: 'injected',
  covers: [],
  probe: () => {
    const action = (globalThis as any).require('WAWebSendStatusMsgAction');
    const fn = action?.sendStatusMediaMsgAction;
    if (typeof fn !== 'function') {
      return { needed: null, detail: 'sendStatusMediaMsgAction is missing' };
    }
    if (fn.wakit) return { needed: true, detail: 'positional calls turned into options' };
    if (fn.length === 1) {
      return { needed: true, detail: 'sendStatusMediaMsgAction takes one options object' };
    }
    return { needed: false };
  },
  fix: () => {
    const action = (globalThis as any).require('WAWebSendStatusMsgAction');
    const original = action?.sendStatusMediaMsgAction;
    if (typeof original !== 'function') {
      return { applied: false, detail: 'sendStatusMediaMsgAction is missing' };
    }
    if (original.wakit) return { applied: true, detail: 'positional calls turned into options' };
    const adapted = async function (this: unknown, first: any, second?: unknown) {
      const options =
        first && typeof first === 'object' && 'mediaMsgData' in first
          ? first
          : {
              mediaMsgData: typeof first?.serialize === 'function' ? first.serialize() : first,
              beforeSend: typeof second === 'function' ? second : () => Promise.resolve(),
              funnelContext: undefined,
            };
      const result = await original.call(this, options);
      const outcome = result?.messageSendResult;
      if (typeof outcome === 'string' && outcome.startsWith('ERROR')) {
        throw new Error(`The status was not posted: sendStatusMediaMsgAction answered ${outcome}`);
      }
      return result;
    };
    (adapted as any).wakit = true;
    action.sendStatusMediaMsgAction = adapted;
    return { applied: true, detail: 'positional calls turned into options' };
  },
};
