/**
 * The machine checks of `wakit doctor`: each answers ok, a warning or a blocker, in plain words,
 * with the fix for a problem. Nothing here changes the machine (the data directory is probed with
 * a file that is removed at once).
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { WakitConfig } from '../config/schema.js';
import { resolveExecutablePath, systemBrowserEnvironment } from '../engines/wwebjs/browser.js';
import { COMPAT_WWEBJS_VERSION } from '../engines/wwebjs/compat/index.js';
import { installedVersions } from '../engines/wwebjs/installed.js';

export type CheckLevel = 'ok' | 'warn' | 'blocker' | 'skip';

export interface CheckResult {
  level: CheckLevel;
  title: string;
  /** What was found. */
  detail: string;
  /** What to do about a problem. */
  fix?: string;
}

const ok = (title: string, detail: string): CheckResult => ({ level: 'ok', title, detail });
const problem = (
  level: 'warn' | 'blocker',
  title: string,
  detail: string,
  fix: string,
): CheckResult => ({ level, title, detail, fix });

export function checkNode(wanted: string, version = process.versions.node): CheckResult {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [wantMajor = 0, wantMinor = 0] = wanted
    .replace(/^>=\s*/, '')
    .split('.')
    .map(Number);
  if (major > wantMajor || (major === wantMajor && minor >= wantMinor)) {
    return ok('Node.js', `${version} (wakit needs ${wanted})`);
  }
  return problem(
    'blocker',
    'Node.js',
    `${version} is too old (wakit needs ${wanted})`,
    `install Node.js ${wanted.replace(/^>=\s*/, '')} or newer (https://nodejs.org)`,
  );
}

function run(file: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs }, (error: Error | null, stdout: string) => {
      if (error) reject(new Error(error.message, { cause: error }));
      else resolve(stdout.trim());
    });
  });
}

export async function checkChromium(engine: WakitConfig['engine']): Promise<CheckResult> {
  if (engine.type !== 'whatsapp-web.js')
    return { level: 'skip', title: 'Chromium', detail: 'not needed by the simulator' };
  let executable: string;
  try {
    executable = resolveExecutablePath(engine, systemBrowserEnvironment());
  } catch (error) {
    const message = (error as Error).message;
    const [found, fix] = message.split(': ');
    return problem(
      'blocker',
      'Chromium',
      found ?? message,
      fix ?? 'install Chromium or set engine.executablePath',
    );
  }
  try {
    const version = await run(executable, ['--version'], 15_000);
    return ok('Chromium', `${executable} (${version})`);
  } catch (error) {
    return problem(
      'blocker',
      'Chromium',
      `${executable} is there but does not run (${(error as Error).message.split('\n')[0]})`,
      'reinstall it (apt-get install --reinstall chromium) or point engine.executablePath at a working one',
    );
  }
}

export function checkLibraries(engine: WakitConfig['engine']): CheckResult[] {
  const versions = installedVersions();
  const title = 'whatsapp-web.js';
  if (engine.type !== 'whatsapp-web.js') {
    const found = versions.whatsappWebJs ? `${versions.whatsappWebJs} installed` : 'not installed';
    return [{ level: 'skip', title, detail: `${found}; not needed by the simulator` }];
  }
  if (!versions.whatsappWebJs) {
    return [
      problem(
        'blocker',
        title,
        'not installed',
        'run npm install in the bot project (wakitjs brings it)',
      ),
    ];
  }
  const results: CheckResult[] = [];
  if (versions.whatsappWebJs === COMPAT_WWEBJS_VERSION) {
    results.push(
      ok(title, `${versions.whatsappWebJs} (the version wakit's compat layer was written for)`),
    );
  } else {
    results.push(
      problem(
        'warn',
        title,
        `${versions.whatsappWebJs} is installed, but wakit's compat layer was written for ${COMPAT_WWEBJS_VERSION}`,
        `install the pinned version (npm install whatsapp-web.js@${COMPAT_WWEBJS_VERSION}) or a wakit release made for ${versions.whatsappWebJs}`,
      ),
    );
  }
  if (!versions.puppeteer) {
    results.push(
      problem('blocker', 'puppeteer', 'not installed', 'run npm install in the bot project'),
    );
  } else if (versions.puppeteerWanted && versions.puppeteer !== versions.puppeteerWanted) {
    results.push(
      problem(
        'warn',
        'puppeteer',
        `${versions.puppeteer}, but whatsapp-web.js ${versions.whatsappWebJs} pins ${versions.puppeteerWanted}`,
        `npm install puppeteer@${versions.puppeteerWanted} --save-exact`,
      ),
    );
  } else {
    results.push(ok('puppeteer', versions.puppeteer));
  }
  return results;
}

/** The data directory: usable (a file can be made and removed), private (0700). */
export async function checkDataDir(dataPath: string): Promise<CheckResult> {
  const title = 'data directory';
  let info;
  try {
    info = await stat(dataPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      return problem(
        'blocker',
        title,
        `${dataPath} cannot be used (${code})`,
        `choose another auth.dataPath, or fix the path (${code})`,
      );
    }
    return checkCreatable(dataPath);
  }
  if (!info.isDirectory()) {
    return problem(
      'blocker',
      title,
      `${dataPath} is a file, not a directory`,
      'remove that file or set auth.dataPath to a directory',
    );
  }
  try {
    await access(dataPath, constants.W_OK | constants.X_OK);
    const probe = await mkdtemp(path.join(dataPath, '.doctor-'));
    await rm(probe, { recursive: true, force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return problem(
      'blocker',
      title,
      `${dataPath} is not writable (${code})`,
      `give the user running wakit write access: chown -R "$(id -u)" ${dataPath}`,
    );
  }
  const mode = info.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    return problem(
      'warn',
      title,
      `${dataPath} is writable but readable by others (mode ${mode.toString(8)})`,
      `sessions are secrets: chmod 700 ${dataPath}`,
    );
  }
  return ok(title, `${dataPath} is writable and private (mode ${mode.toString(8)})`);
}

async function checkCreatable(dataPath: string): Promise<CheckResult> {
  let parent = path.dirname(dataPath);
  while (parent !== path.dirname(parent)) {
    try {
      const info = await stat(parent);
      if (!info.isDirectory()) break;
      await access(parent, constants.W_OK | constants.X_OK);
      return ok('data directory', `${dataPath} does not exist yet; wakit will create it (0700)`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') break;
      parent = path.dirname(parent);
    }
  }
  return problem(
    'blocker',
    'data directory',
    `${dataPath} does not exist and cannot be created (${parent} is not a writable directory)`,
    `create it (mkdir -p -m 700 ${dataPath}) or set auth.dataPath to a writable place`,
  );
}

/** The embedded outbox's native module (better-sqlite3) loads and opens a database. */
export async function checkOutbox(config: WakitConfig): Promise<CheckResult> {
  const title = 'outbox (SQLite)';
  if (config.cluster)
    return { level: 'skip', title, detail: 'the fleet keeps the outbox in Redis' };
  if (config.queue.persistence !== 'sqlite')
    return { level: 'skip', title, detail: 'queue.persistence is memory' };
  try {
    const { default: Database } = await import('better-sqlite3');
    new Database(':memory:').close();
    return ok(title, 'the native module better-sqlite3 loads');
  } catch (error) {
    return problem(
      'blocker',
      title,
      `the native module better-sqlite3 does not load (${(error as Error).message.split('\n')[0]})`,
      `rebuild it for Node.js ${process.versions.node}: npm rebuild better-sqlite3`,
    );
  }
}

/** Redis answers PING at `url` (the fleet's outbox, events and placement). */
export function checkRedis(url: string, timeoutMs = 3_000): Promise<CheckResult> {
  const parsed = new URL(url);
  const host = parsed.hostname || '127.0.0.1';
  const port = Number(parsed.port || 6379);
  const where = `${host}:${port}`;
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (result: CheckResult): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () =>
      done(
        problem(
          'blocker',
          'Redis',
          `${where} did not answer within ${timeoutMs} ms`,
          'start Redis there, or correct cluster.url',
        ),
      ),
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      done(
        problem(
          'blocker',
          'Redis',
          `${where} is not reachable (${error.code ?? error.message})`,
          'start Redis there, or correct cluster.url',
        ),
      ),
    );
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      const reply = data.toString().split('\r\n')[0] ?? '';
      if (reply === '+PONG' || reply.startsWith('-NOAUTH')) done(ok('Redis', `${where} answers`));
      else
        done(
          problem(
            'blocker',
            'Redis',
            `${where} answered "${reply}", not like Redis`,
            'point cluster.url at a Redis 7 server',
          ),
        );
    });
  });
}

/** The GCS endpoint answers HTTP (credentials are not tried: that needs a bucket operation). */
export async function checkGcs(config: WakitConfig, timeoutMs = 5_000): Promise<CheckResult> {
  if (config.auth.type !== 'remote')
    return { level: 'skip', title: 'GCS', detail: 'sessions are local' };
  const emulator = process.env.STORAGE_EMULATOR_HOST;
  const endpoint =
    config.auth.storage.apiEndpoint ??
    (emulator
      ? emulator.startsWith('http')
        ? emulator
        : `http://${emulator}`
      : 'https://storage.googleapis.com');
  try {
    await fetch(endpoint, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    return ok('GCS', `${endpoint} answers (bucket ${config.auth.storage.bucket})`);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return problem(
      'blocker',
      'GCS',
      `${endpoint} is not reachable (${cause})`,
      'check the network, auth.storage.apiEndpoint or STORAGE_EMULATOR_HOST',
    );
  }
}
