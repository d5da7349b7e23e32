import { accessSync, constants, statSync } from 'node:fs';
import { WakitError } from '../../errors/index.js';
import type { WwebjsEngineConfig } from './types.js';

/** Where a system Chromium usually lives (Debian `chromium`, Ubuntu, Google Chrome). */
export const DEFAULT_BROWSER_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
] as const;

/** Server-safe flags: no GPU, no /dev/shm exhaustion, no background traffic of Chromium's own. */
export const SERVER_FLAGS = [
  '--disable-dev-shm-usage',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

/** Only as root: Chromium refuses to start as root with its sandbox on. */
export const ROOT_FLAGS = ['--no-sandbox', '--disable-setuid-sandbox'] as const;

export interface BrowserEnvironment {
  env: NodeJS.ProcessEnv;
  isRoot: boolean;
  /** True when `file` exists, is a file and is executable. */
  isExecutable(file: string): boolean;
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const systemBrowserEnvironment = (): BrowserEnvironment => ({
  env: process.env,
  isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
  isExecutable: isExecutableFile,
});

const INSTALL_HINT =
  'install it with `apt-get install chromium` or set engine.executablePath / PUPPETEER_EXECUTABLE_PATH';

/**
 * The Chromium to launch: `engine.executablePath`, else `PUPPETEER_EXECUTABLE_PATH`, else the first
 * existing default path. Throws `BROWSER_NOT_FOUND` (with how to install one) when there is none.
 */
export function resolveExecutablePath(
  config: Pick<WwebjsEngineConfig, 'executablePath'>,
  environment: BrowserEnvironment,
): string {
  const explicit = config.executablePath ?? environment.env.PUPPETEER_EXECUTABLE_PATH;
  if (explicit) {
    if (environment.isExecutable(explicit)) return explicit;
    const from = config.executablePath ? 'engine.executablePath' : 'PUPPETEER_EXECUTABLE_PATH';
    throw new WakitError(
      'BROWSER_NOT_FOUND',
      `No Chromium found at ${explicit} (${from}): ${INSTALL_HINT}`,
      { details: { executablePath: explicit, source: from } },
    );
  }
  const found = DEFAULT_BROWSER_PATHS.find((candidate) => environment.isExecutable(candidate));
  if (found) return found;
  throw new WakitError(
    'BROWSER_NOT_FOUND',
    `No Chromium found (looked in ${DEFAULT_BROWSER_PATHS.join(', ')}): ${INSTALL_HINT}`,
    { details: { searched: [...DEFAULT_BROWSER_PATHS] } },
  );
}

/** Concatenates flag lists; a later flag with the same name (before `=`) replaces an earlier one. */
export function mergeArgs(...lists: readonly (readonly string[])[]): string[] {
  const byName = new Map<string, string>();
  for (const arg of lists.flat()) {
    const name = arg.split('=', 1)[0] ?? arg;
    byName.delete(name);
    byName.set(name, arg);
  }
  return [...byName.values()];
}

/**
 * Puppeteer launch options: server-safe defaults, then `engine.puppeteer` merged over them (its
 * `args` are added to the defaults, not replacing them). `userDataDir` is owned by the auth
 * strategy (LocalAuth/RemoteAuth refuse a foreign one) and is dropped from user options.
 */
export function buildLaunchOptions(
  config: Pick<WwebjsEngineConfig, 'headless' | 'puppeteer'>,
  executablePath: string,
  isRoot: boolean,
): { options: Record<string, unknown>; ignored: string[] } {
  const {
    args: userArgs,
    userDataDir,
    ...userRest
  } = config.puppeteer as {
    args?: unknown;
    userDataDir?: unknown;
  } & Record<string, unknown>;
  const extraArgs = Array.isArray(userArgs) ? userArgs.filter((a) => typeof a === 'string') : [];
  const options: Record<string, unknown> = {
    headless: config.headless,
    // wakit handles signals itself (graceful stop); puppeteer's handlers would exit the process.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ...userRest,
    executablePath,
    args: mergeArgs(isRoot ? ROOT_FLAGS : [], SERVER_FLAGS, extraArgs),
  };
  return { options, ignored: userDataDir === undefined ? [] : ['userDataDir'] };
}
