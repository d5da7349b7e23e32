import type { Capability } from '../../health.js';

/**
 * Code that runs inside the WhatsApp Web page: a function (serialized with `toString()`, so it may
 * use nothing from its Node scope) or the source text of one. It receives no arguments.
 */
export type PageFunction = string | (() => unknown);

/** When a fix is installed: after every injection of whatsapp-web.js, or once READY. */
export type CompatPhase = 'injected' | 'ready';

/**
 * One known WhatsApp Web change and wakit's answer to it. `probe` answers, from the page, whether
 * this build shows the problem now (`needed`; `null` when only a use of the feature can tell: the
 * fix then guards that use and counts what it did); `fix` installs the narrow answer, once per
 * page (it must be idempotent: it runs again after every reload). After `fix`, `probe` runs again:
 * a fix is "applied" when the problem is gone (or guarded).
 */
export interface CompatFix {
  /** kebab-case, unique: what health, doctor and logs show. */
  id: string;
  /** One line: what changed in WhatsApp Web and what breaks without the fix. */
  summary: string;
  /** The public reports it answers (URLs). */
  upstream: readonly string[];
  /** When wakit may delete it. */
  dropWhen: string;
  phase: CompatPhase;
  /** Capabilities that are broken while this fix is needed and not applied. */
  covers: readonly Capability[];
  probe: PageFunction;
  fix: PageFunction;
}

/** What a probe returns in the page. */
export interface ProbeAnswer {
  needed: boolean | null;
  detail?: string;
}

/** What a fix returns in the page. */
export interface FixAnswer {
  applied: boolean;
  detail?: string;
}
