import type { Clock } from '../../kernel/clock.js';
import type { BrowserEnvironment } from './browser.js';
import type { ProcessKiller } from './dispose.js';
import type { WwebjsBindings } from './types.js';

/** What the wwebjs engine can be given instead of its defaults (tests inject fakes here). */
export interface WwebjsEngineDeps {
  /** whatsapp-web.js bindings or a loader of them; the real library (loaded on first start) by default. */
  bindings?: WwebjsBindings | (() => Promise<WwebjsBindings>);
  browserEnvironment?: BrowserEnvironment;
  clock?: Clock;
  /** RemoteAuth backup period (`auth.backupIntervalMs`); at least 60 s. */
  backupSyncIntervalMs?: number;
  /** Recent whatsapp-web.js messages kept for forward/downloadMedia (default 1000). */
  messageCacheSize?: number;
  /** Time allowed to `destroy()` (and to a launching browser) before the process is killed. */
  destroyTimeoutMs?: number;
  /** Time to wait for the `message_create` of a forwarded message, to learn its id. */
  forwardIdTimeoutMs?: number;
  killProcess?: ProcessKiller;
  /** Where `engine.compat.extra` paths resolve from (the config's directory); cwd by default. */
  baseDir?: string;
  isProcessAlive?: (pid: number) => boolean;
}
