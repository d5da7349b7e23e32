import type { Logger } from 'pino';
import { buildLaunchOptions } from './browser.js';
import type { WwebjsClientOptions, WwebjsEngineConfig } from './types.js';

/** Archive of WhatsApp Web builds used when `engine.webVersion` pins one. */
export const WEB_VERSION_ARCHIVE =
  'https://raw.githubusercontent.com/wppconnect-team/wa-version/main/html/{version}.html';

/** `new Client(options)` for our config: launch flags, auth strategy, QR and timeout limits. */
export function buildClientOptions(
  config: WwebjsEngineConfig,
  launch: { authStrategy: unknown; workDir: string; executablePath: string; isRoot: boolean },
  log: Logger,
): WwebjsClientOptions {
  const { options: puppeteer, ignored } = buildLaunchOptions(
    config,
    launch.executablePath,
    launch.isRoot,
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
    ...(config.webVersion
      ? {
          webVersion: config.webVersion,
          webVersionCache: { type: 'remote', remotePath: WEB_VERSION_ARCHIVE },
        }
      : // in the client's work directory, not whatsapp-web.js's default ./.wwebjs_cache
        { webVersionCache: { type: 'local', path: `${launch.workDir}/web-cache` } }),
  };
}
