/**
 * The compat layer: wakit's answers to known WhatsApp Web changes that whatsapp-web.js has not
 * shipped yet, one file per change (docs/engines.md has the table). Each fix is probed in the page
 * and installed only where the build needs it; operators add their own with `engine.compat.extra`.
 */
import { WakitError } from '../../../errors/index.js';
import { blockContactLid } from './block-contact-lid.js';
import { downloadMimetype } from './download-mimetype.js';
import { forwardBundle } from './forward-bundle.js';
import { groupDescriptionOptions } from './group-description-options.js';
import { loadExtraFixes } from './load-extra.js';
import { mediaSendId } from './media-send-id.js';
import { msgKeySerialized } from './msg-key-serialized.js';
import { onboardingModal } from './onboarding-modal.js';
import { qrRefresh } from './qr-refresh.js';
import { readyRace } from './ready-race.js';
import { statusMediaOptions } from './status-media-options.js';
import { statusRankingGate } from './status-ranking-gate.js';
import type { LoadedFix } from './compat-layer.js';
import type { CompatFix } from './types.js';

/** The whatsapp-web.js version these fixes were written for (a test fails on another one). */
export const COMPAT_WWEBJS_VERSION = '1.34.7';

/**
 * The newest WhatsApp Web build the fixes were checked against (docs/engines.md). Not a default
 * pin: unpinned clients run the live build (the archive drops builds after about two months).
 */
export const COMPAT_WEB_VERSION = '2.3000.1049007170';

/** Built-in fixes, in installation order. */
export const BUILTIN_FIXES: readonly CompatFix[] = [
  readyRace,
  msgKeySerialized,
  onboardingModal,
  mediaSendId,
  downloadMimetype,
  qrRefresh,
  forwardBundle,
  groupDescriptionOptions,
  blockContactLid,
  statusRankingGate,
  statusMediaOptions,
];

/** Unminified page errors: always on (Node side, page-errors.ts); listed like the fixes. */
export const PAGE_ERRORS_FIX = {
  id: 'page-errors',
  summary: 'page exceptions reach Node as "r: r": the real name, message and page stack are lost',
  upstream: ['https://github.com/wwebjs/whatsapp-web.js/pull/201848'],
  dropWhen: 'never (it is how wakit reports page errors)',
} as const;

/**
 * The built-in fixes and the operator's ones (`engine.compat.extra`, resolved from `baseDir`).
 * Built-in fixes named in `disable` (`engine.compat.disable`) are kept, marked disabled: still
 * probed and reported, never installed. An id that is not a built-in fix is CONFIG_INVALID.
 */
export async function loadFixes(
  { extra, disable = [] }: { extra: readonly string[]; disable?: readonly string[] },
  baseDir: string,
): Promise<LoadedFix[]> {
  const ids = BUILTIN_FIXES.map((fix) => fix.id);
  const unknown = disable.filter((id) => !ids.includes(id));
  if (unknown.length > 0) {
    throw new WakitError(
      'CONFIG_INVALID',
      `engine.compat.disable: ${unknown.join(', ')} is not a built-in compat fix (${ids.join(', ')})`,
      { details: { path: 'engine.compat.disable', unknown } },
    );
  }
  const builtin = BUILTIN_FIXES.map((fix) => ({
    ...fix,
    source: 'builtin',
    ...(disable.includes(fix.id) ? { disabled: true } : {}),
  }));
  const taken = new Set([PAGE_ERRORS_FIX.id, ...ids]);
  return [...builtin, ...(await loadExtraFixes(extra, baseDir, taken))];
}

export { CompatLayer, type LoadedFix } from './compat-layer.js';
export { PageError, unminifyPageErrors } from './page-errors.js';
export type { CompatFix, CompatPhase, PageFunction } from './types.js';
