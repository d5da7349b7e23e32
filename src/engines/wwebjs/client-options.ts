import type { Logger } from 'pino';
import { buildLaunchOptions } from './browser.js';
import { COMPAT_WEB_VERSION } from './compat/index.js';
import type { WwebjsClientOptions, WwebjsEngineConfig } from './types.js';

/** Archive of WhatsApp Web builds used when `engine.webVersion` pins one. */
export const WEB_VERSION_ARCHIVE =
  'https://raw.githubusercontent.com/wppconnect-team/wa-version/main/html/{version}.html';

/** `new Client(options)` for our config: launch flags, auth strategy, QR and timeout limits. */
export function buildClientOptions(
  config: WwebjsEngineConfig,
  launch: { authStrategy: unknown; workDir: string; executablePath: string; sandbox: boolean },
  log: Logger,
): WwebjsClientOptions {
  const { options: puppeteer, ignored } = buildLaunchOptions(
    config,
    launch.executablePath,
    launch.sandbox,
  );
  if (ignored.length > 0) {
    log.warn({ ignored }, 'engine.puppeteer options owned by the auth strategy were ignored');
  }
  return {
    authStrategy: launch.authStrategy,
    puppeteer,
    authTimeoutMs: config.authTimeoutMs,
    qrMaxRetries: config.qrMaxRetries,
    takeoverOnConflict: false,
    userAgent: config.userAgent,
    ...webCacheOptions(config, launch.workDir),
  };
}

/**
 * The build to ask for: the configured one; unset, `COMPAT_WEB_VERSION` from the remote archive
 * (whatsapp-web.js falls back to the live build when the archive cannot give it, not strict:
 * RemoteWebCache.js), but nothing with a local cache (strict: a build that never loaded on this
 * machine would fail every start); `live`: none.
 */
function pinnedVersion(config: WwebjsEngineConfig): string | undefined {
  if (config.webVersion === 'live') return undefined;
  if (config.webVersion) return config.webVersion;
  return config.webVersionCache === 'remote' ? COMPAT_WEB_VERSION : undefined;
}

/**
 * whatsapp-web.js 1.34 (Client.js:1240-1270) asks webVersionCache for `webVersion` (default
 * 2.3000.1017054665, util/Constants.js:10); a local cache answers from `<path>/<version>.html`
 * (webCache/LocalWebCache.js:20), intercepting the request for https://web.whatsapp.com/, and
 * once linked saves the build that loaded (Client.js:312). `{ type: 'local', path }` reads (and
 * saves) in a directory of the user's instead of the client's `web-cache`.
 */
function webCacheOptions(
  config: WwebjsEngineConfig,
  workDir: string,
): Pick<WwebjsClientOptions, 'webVersion' | 'webVersionCache'> {
  const cache = config.webVersionCache;
  const localPath = typeof cache === 'object' ? cache.path : `${workDir}/web-cache`;
  const webVersion = pinnedVersion(config);
  if (!webVersion) {
    // in the client's work directory, not whatsapp-web.js's default ./.wwebjs_cache
    return { webVersionCache: { type: 'local', path: localPath } };
  }
  return {
    webVersion,
    webVersionCache:
      cache === 'remote'
        ? { type: 'remote', remotePath: WEB_VERSION_ARCHIVE }
        : { type: 'local', path: localPath, strict: true },
  };
}
