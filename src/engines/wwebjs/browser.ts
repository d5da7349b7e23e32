import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { WakitError } from '../../errors/index.js';
import type { WwebjsEngineConfig } from './types.js';

/** Where a system Chromium usually lives on Linux (Debian `chromium`, Ubuntu, Google Chrome). */
export const DEFAULT_BROWSER_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
] as const;

const LINUX_EXTRA = ['/usr/bin/google-chrome-stable', '/snap/bin/chromium'];

const MAC_APPS = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
];

const WINDOWS_APPS = [
  ['Google', 'Chrome', 'Application', 'chrome.exe'],
  ['Chromium', 'Application', 'chrome.exe'],
  ['Microsoft', 'Edge', 'Application', 'msedge.exe'],
];

/**
 * The usual install locations of Chromium, Chrome or Edge on `platform`, most likely first: the
 * Linux paths above, `/Applications` and `~/Applications` on macOS, Program Files and the
 * per-user LocalAppData folder on Windows.
 */
export function browserPaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    const roots = [
      '/Applications',
      ...(env.HOME ? [path.posix.join(env.HOME, 'Applications')] : []),
    ];
    return roots.flatMap((root) => MAC_APPS.map((app) => path.posix.join(root, app)));
  }
  if (platform === 'win32') {
    const roots = [
      env.PROGRAMFILES ?? 'C:\\Program Files',
      env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)',
      ...(env.LOCALAPPDATA ? [env.LOCALAPPDATA] : []),
    ];
    return WINDOWS_APPS.flatMap((parts) => roots.map((root) => path.win32.join(root, ...parts)));
  }
  return [...DEFAULT_BROWSER_PATHS, ...LINUX_EXTRA];
}

function installHint(platform: NodeJS.Platform): string {
  const install =
    platform === 'darwin'
      ? 'install Google Chrome (or `brew install --cask chromium`)'
      : platform === 'win32'
        ? 'install Google Chrome'
        : 'install it with `apt-get install chromium`';
  return (
    `${install}, or set "engine": { "executablePath": "/path/to/chrome" } in bot.config.json ` +
    '(or the PUPPETEER_EXECUTABLE_PATH environment variable)'
  );
}

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

/**
 * Chromium without its own sandbox: as root (it refuses to start otherwise) and inside a container
 * (Docker's default seccomp profile forbids the namespaces the sandbox needs: "No usable sandbox!").
 * Why, and how to keep the sandbox in a container: docs/deploy.md.
 */
export const NO_SANDBOX_FLAGS = ['--no-sandbox', '--disable-setuid-sandbox'] as const;

/** `on` keeps Chromium's sandbox everywhere, `off` drops it everywhere; unset: automatic. */
export const SANDBOX_ENV = 'WAKIT_BROWSER_SANDBOX';

export interface BrowserEnvironment {
  env: NodeJS.ProcessEnv;
  /** Operating system whose install locations are searched; default: this one. */
  platform?: NodeJS.Platform;
  isRoot: boolean;
  /** Running inside a container (Docker, podman, Kubernetes). */
  inContainer?: boolean;
  /** True when `file` exists, is a file and is executable. */
  isExecutable(file: string): boolean;
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false; // not reported: not there or not executable is the answer
  }
}

/** Docker writes /.dockerenv, podman /run/.containerenv; Kubernetes sets KUBERNETES_SERVICE_HOST. */
export function detectContainer(env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    existsSync('/.dockerenv') ||
    existsSync('/run/.containerenv') ||
    env.KUBERNETES_SERVICE_HOST !== undefined
  );
}

export const systemBrowserEnvironment = (): BrowserEnvironment => ({
  env: process.env,
  platform: process.platform,
  isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
  inContainer: detectContainer(),
  isExecutable: isExecutableFile,
});

/**
 * Whether Chromium runs with its sandbox: `WAKIT_BROWSER_SANDBOX=on|off` decides; otherwise on,
 * except as root or inside a container. Any other value is refused with VALIDATION_FAILED.
 */
export function browserSandbox(environment: BrowserEnvironment): boolean {
  const setting = environment.env[SANDBOX_ENV];
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  if (setting !== undefined && setting !== '') {
    throw new WakitError('VALIDATION_FAILED', `${SANDBOX_ENV}=${setting}: use on or off`, {
      details: { [SANDBOX_ENV]: setting },
    });
  }
  return !environment.isRoot && environment.inContainer !== true;
}

/**
 * The Chromium to launch: `engine.executablePath`, else `PUPPETEER_EXECUTABLE_PATH`, else the first
 * existing usual install location of the platform. Throws `BROWSER_NOT_FOUND` naming every path
 * tried and how to install one or set `engine.executablePath` when there is none.
 */
export function resolveExecutablePath(
  config: Pick<WwebjsEngineConfig, 'executablePath'>,
  environment: BrowserEnvironment,
): string {
  const platform = environment.platform ?? process.platform;
  const hint = installHint(platform);
  const explicit = config.executablePath ?? environment.env.PUPPETEER_EXECUTABLE_PATH;
  if (explicit) {
    if (environment.isExecutable(explicit)) return explicit;
    const from = config.executablePath ? 'engine.executablePath' : 'PUPPETEER_EXECUTABLE_PATH';
    throw new WakitError(
      'BROWSER_NOT_FOUND',
      `No Chromium found at ${explicit} (${from}): ${hint}`,
      { details: { executablePath: explicit, source: from } },
    );
  }
  const candidates = browserPaths(platform, environment.env);
  const found = candidates.find((candidate) => environment.isExecutable(candidate));
  if (found) return found;
  throw new WakitError(
    'BROWSER_NOT_FOUND',
    `No Chromium found (looked in ${candidates.join(', ')}): ${hint}`,
    { details: { searched: candidates, platform } },
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
 * Puppeteer launch options: server-safe defaults (and `protocolTimeout` from
 * `engine.protocolTimeoutMs`), then `engine.puppeteer` merged over them (its
 * `args` are added to the defaults, not replacing them). `userDataDir` is owned by the auth
 * strategy (LocalAuth/RemoteAuth refuse a foreign one) and is dropped from user options.
 */
export function buildLaunchOptions(
  config: Pick<WwebjsEngineConfig, 'headless' | 'puppeteer' | 'protocolTimeoutMs'>,
  executablePath: string,
  sandbox: boolean,
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
    // every CDP call (page.evaluate, …) fails after this instead of puppeteer's 180 s
    protocolTimeout: config.protocolTimeoutMs,
    ...userRest,
    executablePath,
    args: mergeArgs(sandbox ? [] : NO_SANDBOX_FLAGS, SERVER_FLAGS, extraArgs),
  };
  return { options, ignored: userDataDir === undefined ? [] : ['userDataDir'] };
}
