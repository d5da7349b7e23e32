/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- page code, serialized into WhatsApp Web: its modules are untyped */
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
 * One cheap look at each capability, in the page: what whatsapp-web.js 1.34.7 calls exists, and a
 * message key and a wid built from known parts serialize to the expected strings. Nothing is sent.
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
    const MsgKey = mod('WAWebMsgKey');
    const key = new MsgKey({ from: wid, to: wid, id: 'WAKITPROBE0', selfDir: 'out' });
    const want = 'true_10000000000@c.us_WAKITPROBE0';
    return key._serialized === want || `a message key serializes to ${String(key._serialized)}`;
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
  for (const result of compat) {
    if (result.needed !== true || result.applied) continue;
    for (const name of fixes.find((fix) => fix.id === result.id)?.covers ?? []) {
      capabilities[name] = {
        ok: false,
        detail: `compat fix ${result.id} is needed but not installed`,
      };
    }
  }
  return { ...base, build: answer.build, capabilities, pin: comparePin(pinned, answer.build) };
}
