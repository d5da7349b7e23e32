/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * `WAWebGroupModifyInfoJob.setGroupDescription` now takes one options object
 * `{ groupWid, desc, newDescId, prevDescId }` (seen on 2.3000.1046070720 and 2.3000.1046899131);
 * whatsapp-web.js 1.34.7 calls it positionally (GroupChat.js:418-425), the object's fields read
 * back undefined and the job fails with "Cannot read properties of undefined (reading 'toJid')":
 * wppconnect wa-js #3595, fixed by wa-js PR #3638 (one options object for the one-parameter
 * contract, the positional call kept for older builds); OpenWA PR #1487. whatsapp-web.js PR
 * #201895 (open) changes `GroupChat.setDescription` to pass the options object.
 *
 * Probe by value: the job's arity (one parameter: the options contract). Fix: the job accepts both
 * calls; a positional one is turned into the options object (an empty description as `null`, the
 * deletion form, as wa-js does).
 */
export const groupDescriptionOptions: CompatFix = {
  id: 'group-description-options',
  summary:
    "setGroupDescription takes an options object: whatsapp-web.js's positional call fails (toJid of undefined)",
  upstream: [
    'https://github.com/wppconnect-team/wa-js/issues/3595',
    'https://github.com/wppconnect-team/wa-js/pull/3638',
    'https://github.com/wwebjs/whatsapp-web.js/pull/201895',
    'https://github.com/rmyndharis/OpenWA/pull/1487',
  ],
  dropWhen: 'whatsapp-web.js calls setGroupDescription with the options object (PR #201895)',
  phase: 'injected',
  covers: ['groups.description'],
  probe: () => {
    const job = (globalThis as any).require('WAWebGroupModifyInfoJob');
    const fn = job.setGroupDescription;
    if (typeof fn !== 'function') return { needed: null, detail: 'setGroupDescription is missing' };
    if (fn.wakit) return { needed: true, detail: 'positional calls turned into options' };
    if (fn.length === 1)
      return { needed: true, detail: 'setGroupDescription takes one options object' };
    return { needed: false };
  },
  fix: () => {
    const job = (globalThis as any).require('WAWebGroupModifyInfoJob');
    const original = job.setGroupDescription;
    if (typeof original !== 'function') {
      return { applied: false, detail: 'setGroupDescription is missing' };
    }
    if (original.wakit) return { applied: true, detail: 'positional calls turned into options' };
    const adapted = function (this: unknown, first: any, ...rest: unknown[]) {
      if (rest.length === 0 && first && typeof first === 'object' && 'groupWid' in first) {
        return original.call(this, first);
      }
      const [desc, newDescId, prevDescId] = rest;
      return original.call(this, {
        groupWid: first,
        desc: desc === '' || desc === undefined ? null : desc,
        newDescId,
        prevDescId,
      });
    };
    (adapted as any).wakit = true;
    job.setGroupDescription = adapted;
    return { applied: true, detail: 'positional calls turned into options' };
  },
};
