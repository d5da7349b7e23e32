/**
 * The pin against the running build. whatsapp-web.js serves the pinned build's HTML only when its
 * web cache has it; the remote cache is not strict (webCache/RemoteWebCache.js: a miss resolves to
 * null and the live page loads, Client.js:1248-1270), and WhatsApp's service worker may still
 * serve another build. So the build that runs is read from the page (`window.Debug.VERSION`,
 * which the library itself reads in `inject()` on every load, Client.js:142, before any QR or
 * authentication) and compared with the pin: OpenWA checks the running build for the same reason.
 */
import { WakitError } from '../../errors/index.js';
import type { PinCheck } from '../health.js';
import type { WwebjsEngineConfig } from './types.js';

/**
 * The file name the wppconnect wa-version archive gives a build: 2.3000 builds are archived as
 * `2.3000.<client_revision>-alpha` (its src/fetchCurrentAlphaVersion.ts), older ones by their
 * bare version; a version that already names its suffix is kept.
 */
export function archiveFileName(version: string): string {
  return /^2\.3000\.\d+$/.test(version) ? `${version}-alpha` : version;
}

/** The build the page reports for a pinned version: the archive's `-alpha`/`-beta` suffix off. */
export function bareVersion(version: string): string {
  return version.replace(/-(alpha|beta)$/, '');
}

/** The pinned build (`engine.webVersion`, bare); null when unpinned (unset or `live`). */
export function pinnedBuild(config: Pick<WwebjsEngineConfig, 'webVersion'>): string | null {
  const { webVersion } = config;
  return webVersion && webVersion !== 'live' ? bareVersion(webVersion) : null;
}

export function comparePin(pinned: string | null, running: string | null): PinCheck {
  const status = !pinned
    ? 'unpinned'
    : !running
      ? 'unknown'
      : bareVersion(running) === pinned
        ? 'held'
        : 'mismatch';
  return { pinned, running, status };
}

/**
 * `engine.webVersionStrict`: a build other than the pin refuses to run. Not transient: the same
 * start finds the same build (the archive does not have it, or the service worker serves another).
 */
export function pinMismatchError(client: string, pin: PinCheck): WakitError {
  return new WakitError(
    'WEB_VERSION_MISMATCH',
    `Client ${client} is pinned to WhatsApp Web ${pin.pinned ?? 'none'} but the page runs ` +
      `${pin.running ?? 'an unknown build'}; engine.webVersionStrict refuses it. The archive may ` +
      'no longer have the pinned build (it keeps builds about two months), or a service worker ' +
      'served another one: pin a build your cache has (webVersionCache local), or turn ' +
      'webVersionStrict off (docs/engines.md, "Pinning WhatsApp Web")',
    { details: { client, pinned: pin.pinned, running: pin.running } },
  );
}

interface VersionedClient {
  getWWebVersion?: () => Promise<string>;
}

/**
 * Calls `onBuild` with the running build each time whatsapp-web.js reads it (`getWWebVersion`, on
 * every page load): the client instance's own method is wrapped, what it returns is unchanged.
 */
export function watchRunningBuild(target: object, onBuild: (build: string | null) => void): void {
  const client = target as VersionedClient;
  const original = client.getWWebVersion;
  if (typeof original !== 'function') return;
  client.getWWebVersion = async () => {
    const build = await original.call(client);
    onBuild(typeof build === 'string' && build.length > 0 ? build : null);
    return build;
  };
}
