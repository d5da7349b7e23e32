import type { Logger } from 'pino';
import type { ClientLike } from './types.js';

export type ProcessKiller = (pid: number) => void;

/** Kills a Chromium puppeteer launched (its own process group, puppeteer spawns it detached). */
export const killProcessTree: ProcessKiller = (pid) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // not reported: already gone
    }
  }
};

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the promise's outcome, or with `'timeout'` after `ms`; never rejects. */
export async function settleWithin(
  promise: Promise<unknown>,
  ms: number,
): Promise<'ok' | 'error' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => 'ok' as const,
        () => 'error' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const browserPid = (client: ClientLike): number | undefined => {
  try {
    return client.pupBrowser?.process()?.pid ?? undefined;
  } catch {
    return undefined; // not reported: no browser process (closed) is the answer
  }
};

export interface DisposeOptions {
  /** Settles when the client's `initialize()` has settled (it may still be launching Chromium). */
  initialized: Promise<unknown>;
  timeoutMs: number;
  logger: Logger;
  kill: ProcessKiller;
  isAlive: (pid: number) => boolean;
}

/**
 * Destroys a whatsapp-web.js client so that no Chromium survives: `destroy()` (never `logout()`),
 * bounded in time; if `initialize()` was still launching the browser, waits for it and destroys
 * again; finally kills any browser process still alive by pid.
 */
export async function disposeClient(client: ClientLike, options: DisposeOptions): Promise<void> {
  const { logger, timeoutMs } = options;
  const pids = new Set<number>();
  const remember = (): void => {
    const pid = browserPid(client);
    if (pid !== undefined) pids.add(pid);
  };
  const destroy = async (): Promise<void> => {
    remember();
    const outcome = await settleWithin(client.destroy(), timeoutMs);
    if (outcome !== 'ok') logger.warn({ outcome }, 'whatsapp-web.js destroy() did not complete');
  };

  const hadBrowser = client.pupBrowser !== null;
  await destroy();
  if (!hadBrowser) {
    // initialize() may be inside puppeteer.launch(): wait until it settles or the browser appears.
    const deadline = Date.now() + timeoutMs;
    let settled = false;
    const done = options.initialized.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    while (!settled && client.pupBrowser === null && Date.now() < deadline) {
      await Promise.race([done, sleep(50)]);
    }
    if (client.pupBrowser !== null) await destroy();
  }
  remember();
  for (const pid of pids) {
    if (options.isAlive(pid)) {
      logger.warn({ pid }, 'Chromium still running after destroy(); killing it');
      options.kill(pid);
    }
  }
}
