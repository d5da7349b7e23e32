/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import { WakitError } from '../../errors/index.js';
import {
  CAPABILITIES,
  type Capability,
  type CapabilityResult,
  type CompatResult,
  type EngineProbe,
} from '../health.js';
import type { CompatFix } from './compat/types.js';
import { installedVersions } from './installed.js';
import { comparePin } from './running-build.js';
import { errorText, runInPage, type EvaluatingPage } from './compat/run-in-page.js';

/**
 * One cheap look at each capability, in the page, by behaviour where it is cheap and safe: an id
 * round trip through whatsapp-web.js's own serialisation (a message the page holds, through
 * `WWebJS.getMessageModel` and JSON, as it crosses to Node), the forward module actually
 * requirable, the description job taking the call whatsapp-web.js makes; elsewhere, that what
 * whatsapp-web.js 1.34.7 calls exists. Nothing is sent and nothing changes.
 */
const PAGE_PROBE = (): unknown => {
  const w = globalThis as any;
  const out: Record<string, { ok: boolean; detail?: string }> = {};
  const check = (name: string, test: () => true | string): void => {
    try {
      const verdict = test();
      out[name] = verdict === true ? { ok: true } : { ok: false, detail: verdict };
    } catch (e: any) {
      out[name] = { ok: false, detail: `${e?.name ?? 'Error'}: ${e?.message ?? String(e)}` };
    }
  };
  const fn = (value: unknown): boolean => typeof value === 'function';
  const mod = (name: string): any => w.require(name);
  check('ids.serialize', () => {
    const wid = mod('WAWebWidFactory').createWid('10000000000@c.us');
    if (wid._serialized !== '10000000000@c.us') return `a wid serializes to ${wid._serialized}`;
    // the round trip a message's id makes to Node (getMessageModel, then JSON), on a message the
    // page holds; without one, a message key built from known parts
    const msgs = mod('WAWebCollections').Msg;
    const msg = fn(msgs?.getModelsArray) ? msgs.getModelsArray()[0] : undefined;
    if (msg && fn(w.WWebJS?.getMessageModel)) {
      const id = JSON.parse(JSON.stringify(w.WWebJS.getMessageModel(msg)))?.id;
      const whole =
        typeof id?._serialized === 'string' && id._serialized.endsWith(`_${String(id.id)}`);
      return whole || `a message id reaches Node as ${JSON.stringify(id)} (no _serialized)`;
    }
    const MsgKey = mod('WAWebMsgKey');
    const key = new MsgKey({ from: wid, to: wid, id: 'WAKITPROBE0', selfDir: 'out' });
    const want = 'true_10000000000@c.us_WAKITPROBE0';
    return key._serialized === want || `a message key serializes to ${String(key._serialized)}`;
  });
  check('send.forward', () => {
    const forward = w.require('WAWebChatForwardMessage');
    if (forward === undefined) return 'WAWebChatForwardMessage is registered but not loaded';
    return fn(forward.forwardMessages) || 'WAWebChatForwardMessage.forwardMessages is missing';
  });
  check('groups.description', () => {
    const set = mod('WAWebGroupModifyInfoJob').setGroupDescription;
    if (!fn(set)) return 'setGroupDescription is missing';
    return (
      set.length !== 1 ||
      set.wakit === true ||
      'setGroupDescription takes one options object; whatsapp-web.js calls it positionally'
    );
  });
  check(
    'send.text',
    () =>
      (fn(w.WWebJS?.sendMessage) && fn(mod('WAWebSendMsgChatAction').addAndSendMsgToChat)) ||
      'WWebJS.sendMessage or addAndSendMsgToChat is missing',
  );
  check(
    'send.media',
    () =>
      (fn(w.WWebJS?.processMediaData) &&
        fn(mod('WAWebPrepRawMedia').prepRawMedia) &&
        fn(mod('WAWebMediaMmsV4Upload').uploadMedia)) ||
      'the media prep or upload path is missing',
  );
  check(
    'media.download',
    () =>
      fn(mod('WAWebDownloadManager').downloadManager?.downloadAndMaybeDecrypt) ||
      'downloadManager.downloadAndMaybeDecrypt is missing',
  );
  check(
    'contacts.lid',
    () =>
      (fn(w.WWebJS?.enforceLidAndPnRetrieval) &&
        fn(mod('WAWebApiContact').getCurrentLid) &&
        fn(mod('WAWebApiContact').getPhoneNumber)) ||
      'the LID look-up is missing',
  );
  check('groups.metadata', () => {
    const collections = mod('WAWebCollections');
    const groups = collections.GroupMetadata ?? collections.WAWebGroupMetadataCollection;
    return (fn(groups?.find) && fn(groups?.getModelsArray)) || 'GroupMetadata is missing';
  });
  return { build: w.Debug?.VERSION ?? null, capabilities: out };
};

/**
 * The engine's health on this page: the page probe, with every capability a needed-but-missing
 * compat fix covers marked broken, and the pin (`pinned`) against the build the page runs. Without a loaded page, or when the probe itself cannot run (a
 * reload under way), it throws ENGINE_ERROR: no verdict, rather than "everything is broken".
 */
export async function probeHealth(
  page: EvaluatingPage | null,
  compat: CompatResult[],
  fixes: readonly CompatFix[],
  pinned: string | null = null,
): Promise<EngineProbe> {
  const library = installedVersions().whatsappWebJs;
  const base = { library: library ? `whatsapp-web.js ${library}` : null, compat };
  if (!page) throw new WakitError('ENGINE_ERROR', 'WhatsApp Web is not loaded: nothing to probe');
  let answer: { build: string | null; capabilities: Record<string, CapabilityResult> };
  try {
    answer = (await runInPage(page, PAGE_PROBE, 10_000)) as typeof answer;
  } catch (error) {
    throw new WakitError('ENGINE_ERROR', `The health probe could not run: ${errorText(error)}`, {
      cause: error,
    });
  }
  const capabilities = {} as Record<Capability, CapabilityResult>;
  for (const name of CAPABILITIES) {
    capabilities[name] = answer.capabilities[name] ?? { ok: false, detail: 'not probed' };
  }
  // not a look at the page: the engine's inbound check (inbound-bridge.ts) answers it
  capabilities['events.inbound'] = { ok: true, detail: 'checked by the engine' };
  for (const result of compat) {
    if (result.needed !== true || result.applied) continue;
    for (const name of fixes.find((fix) => fix.id === result.id)?.covers ?? []) {
      const seen = capabilities[name].ok ? undefined : capabilities[name].detail;
      const why = `compat fix ${result.id} is needed but not installed`;
      capabilities[name] = { ok: false, detail: seen ? `${seen}; ${why}` : why };
    }
  }
  return { ...base, build: answer.build, capabilities, pin: comparePin(pinned, answer.build) };
}
