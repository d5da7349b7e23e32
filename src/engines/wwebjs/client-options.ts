import type { Logger } from 'pino';
import { buildLaunchOptions } from './browser.js';
import { archiveFileName } from './running-build.js';
import type { WwebjsClientOptions, WwebjsEngineConfig } from './types.js';

/**
 * Archive of WhatsApp Web builds used when `engine.webVersion` pins one (`{version}`: the
 * archive's file name, `archiveFileName`). It keeps each build about two months (its
 * src/tools/update.ts removes a build once `expire`, released + 2 months, has passed).
 */
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
 * The build to ask for: the configured one; unset or `live`, none (no default pin: the archive
 * drops builds after about two months, so a default shipped in a release would stop applying
 * silently; docs/engines.md, "Pinning WhatsApp Web").
 */
function pinnedVersion(config: WwebjsEngineConfig): string | undefined {
  return config.webVersion && config.webVersion !== 'live' ? config.webVersion : undefined;
}

/**
 * whatsapp-web.js 1.34 (Client.js:1240-1270) asks webVersionCache for `webVersion` (default
 * 2.3000.1017054665, util/Constants.js:10); a local cache answers from `<path>/<version>.html`
 * (webCache/LocalWebCache.js:20), intercepting the request for https://web.whatsapp.com/, and
 * once linked saves the build that loaded (Client.js:312). `{ type: 'local', path }` reads (and
 * saves) in a directory of the user's instead of the client's `web-cache`; `{ type: 'remote',
 * url }` asks a mirror of the archive instead of the archive. The remote look-up is not strict
 * (RemoteWebCache.js): a miss loads the live page, which the running-build check reports.
 */
function webCacheOptions(
  config: WwebjsEngineConfig,
  workDir: string,
): Pick<WwebjsClientOptions, 'webVersion' | 'webVersionCache'> {
  const cache = config.webVersionCache;
  const localPath =
    typeof cache === 'object' && cache.type === 'local' ? cache.path : `${workDir}/web-cache`;
  const webVersion = pinnedVersion(config);
  if (!webVersion) {
    // in the client's work directory, not whatsapp-web.js's default ./.wwebjs_cache
    return { webVersionCache: { type: 'local', path: localPath } };
  }
  if (cache === 'remote' || (typeof cache === 'object' && cache.type === 'remote')) {
    // RemoteWebCache puts `webVersion` into `{version}`: the archive's file name, not the build's
    const remotePath = typeof cache === 'object' ? cache.url : WEB_VERSION_ARCHIVE;
    return {
      webVersion: archiveFileName(webVersion),
      webVersionCache: { type: 'remote', remotePath },
    };
  }
  return { webVersion, webVersionCache: { type: 'local', path: localPath, strict: true } };
}
