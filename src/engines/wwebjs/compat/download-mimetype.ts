/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * Newer builds refuse `downloadManager.downloadAndMaybeDecrypt` without the media's MIME type
 * (`InvalidMediaFileType`); whatsapp-web.js 1.34.7's `Message.downloadMedia` passes none
 * (structures/Message.js:562), so every inbound media download fails.
 *
 * The fix is a guard on that call: when it fails for want of a MIME type and the caller gave none,
 * it is made once more with the MIME type of the message that owns the file (found by its file
 * hash in the Msg collection). A build that accepts the call without one never reaches the guard.
 */
export const downloadMimetype: CompatFix = {
  id: 'download-mimetype',
  summary:
    'media downloads are refused without a MIME type (InvalidMediaFileType): every inbound downloadMedia fails',
  upstream: [
    'https://github.com/devlikeapro/waha/issues/2271',
    'https://github.com/wppconnect-team/wa-js/releases/tag/v4.4.0',
  ],
  dropWhen: 'whatsapp-web.js passes the message mimetype to downloadAndMaybeDecrypt itself',
  phase: 'ready',
  covers: ['media.download'],
  probe: () => {
    const hits = (globalThis as any).__wakitCompat?.hits?.['download-mimetype'] ?? 0;
    if (hits > 0) return { needed: true, detail: `added the MIME type to ${hits} download(s)` };
    return { needed: null, detail: 'decided by the first media download' };
  },
  fix: () => {
    const w = globalThis as any;
    const state = (w.__wakitCompat ??= { hits: {} });
    const manager = w.require('WAWebDownloadManager').downloadManager;
    const original = manager?.downloadAndMaybeDecrypt;
    if (typeof original !== 'function') {
      return { applied: false, detail: 'downloadManager.downloadAndMaybeDecrypt is missing' };
    }
    if (original.wakit) return { applied: true, detail: 'guarding media downloads' };
    const ownerMimetype = (filehash: unknown): string | undefined => {
      if (!filehash) return undefined;
      const msgs = w.require('WAWebCollections').Msg.getModelsArray();
      return msgs.find((m: any) => m.filehash === filehash && m.mimetype)?.mimetype;
    };
    const guarded = async function (this: unknown, args: any, ...rest: unknown[]) {
      try {
        return await original.call(this, args, ...rest);
      } catch (error: any) {
        const text = `${error?.name ?? ''} ${error?.message ?? ''}`;
        if (!args || args.mimetype || !/mime|InvalidMediaFileType/i.test(text)) throw error;
        const mimetype = ownerMimetype(args.filehash);
        if (!mimetype) throw error;
        state.hits['download-mimetype'] = (state.hits['download-mimetype'] ?? 0) + 1;
        return original.call(this, { ...args, mimetype }, ...rest);
      }
    };
    (guarded as any).wakit = true;
    manager.downloadAndMaybeDecrypt = guarded;
    return { applied: true, detail: 'guarding media downloads' };
  },
};
