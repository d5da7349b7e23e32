/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- page code, serialized into WhatsApp Web: its modules are untyped */
import type { CompatFix } from './types.js';

/**
 * Where WhatsApp has rolled out its download MIME check (a rollout flag), a file fetched by
 * `downloadManager.downloadAndMaybeDecrypt` is checked against the MIME type the call names, and a
 * call without one reads as `application/octet-stream`, which no media type allows: the download
 * is refused with `InvalidMediaFileType` after it was made. whatsapp-web.js 1.34.7's
 * `Message.downloadMedia` passes no MIME type (structures/Message.js:559-570), so inbound media
 * downloads fail (files already in the page's blob cache are not fetched, so not checked).
 *
 * The upstream fix (whatsapp-web.js #201908 for 1.34.7, PR #201914 on main; OpenWA's
 * patch-wwebjs-download-mimetype.js) passes the message's `mimetype` in that call, as WhatsApp
 * Web's own download path does. This does the same from the page: a call that names no MIME type
 * gets, before it is made, the MIME type of the message that owns the file (found by its file hash
 * in the Msg collection). One download, never a retry after a refusal.
 */
export const downloadMimetype: CompatFix = {
  id: 'download-mimetype',
  summary:
    'media downloads are refused without a MIME type (InvalidMediaFileType): every inbound downloadMedia fails',
  upstream: [
    'https://github.com/wwebjs/whatsapp-web.js/issues/201908',
    'https://github.com/wwebjs/whatsapp-web.js/pull/201914',
    'https://github.com/rmyndharis/OpenWA/blob/main/scripts/patch-wwebjs-download-mimetype.js',
  ],
  dropWhen: 'whatsapp-web.js passes the message mimetype to downloadAndMaybeDecrypt itself',
  phase: 'ready',
  covers: ['media.download'],
  // Whether this account has the check is a rollout flag the page does not show, and the MIME type
  // goes in before the call: "needed" stays unknown (null), the detail counts what the guard did.
  probe: () => {
    const hits = (globalThis as any).__wakitCompat?.hits?.['download-mimetype'] ?? 0;
    return {
      needed: null,
      detail: `guard (the check is a rollout flag): passed the MIME type to ${hits} download(s)`,
    };
  },
  fix: () => {
    const w = globalThis as any;
    const state = (w.__wakitCompat ??= { hits: {} });
    const manager = w.require('WAWebDownloadManager').downloadManager;
    const original = manager?.downloadAndMaybeDecrypt;
    if (typeof original !== 'function') {
      return { applied: false, detail: 'downloadManager.downloadAndMaybeDecrypt is missing' };
    }
    if (original.wakit) return { applied: true, detail: 'passing the MIME type to downloads' };
    const ownerMimetype = (filehash: unknown): string | undefined => {
      if (!filehash) return undefined;
      const msgs = w.require('WAWebCollections').Msg.getModelsArray();
      return msgs.find((m: any) => m.filehash === filehash && m.mimetype)?.mimetype;
    };
    const withMimetype = function (this: unknown, args: any, ...rest: unknown[]) {
      const mimetype = args && !args.mimetype ? ownerMimetype(args.filehash) : undefined;
      if (!mimetype) return original.call(this, args, ...rest);
      state.hits['download-mimetype'] = (state.hits['download-mimetype'] ?? 0) + 1;
      return original.call(this, { ...args, mimetype }, ...rest);
    };
    (withMimetype as any).wakit = true;
    manager.downloadAndMaybeDecrypt = withMimetype;
    return { applied: true, detail: 'passing the MIME type to downloads' };
  },
};
