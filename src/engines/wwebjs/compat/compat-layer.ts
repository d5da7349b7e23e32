import type { Logger } from 'pino';
import type { CompatResult } from '../../health.js';
import { unminifyPageErrors } from './page-errors.js';
import { guardSyncedBinding } from './synced-once.js';
import { errorText, runInPage, type EvaluatingPage } from './run-in-page.js';
import type { CompatFix, CompatPhase, FixAnswer, ProbeAnswer } from './types.js';

/** A fix with where it came from: `builtin` or the operator's file. */
export interface LoadedFix extends CompatFix {
  source: string;
  /** Named in `engine.compat.disable`: probed and reported, never installed. */
  disabled?: boolean;
}

/** What the compat layer needs of a whatsapp-web.js Client. */
interface InjectingClient {
  pupPage: unknown;
  inject?: (...args: unknown[]) => Promise<unknown>;
}

/** Time one probe or fix may take in the page. */
const STEP_TIMEOUT_MS = 10_000;
/** Time READY may wait for the fixes (a stuck page must not hold READY back for long). */
const READY_WAIT_MS = 30_000;

/**
 * The compat layer of one whatsapp-web.js Client: after every `inject()` of the library (the first
 * load and every reload, Client.js:493-504) it makes page exceptions readable and installs the
 * fixes of the `injected` phase; once READY (`ready()`) it installs all of them (the `ready` ones
 * need whatsapp-web.js's own code, which loads just before READY). Each fix is probed first and
 * installed only when the build needs it (or may: guards); one failing fix never stops the others.
 */
export class CompatLayer {
  readonly #fixes: readonly LoadedFix[];
  readonly #log: Logger;
  readonly #results = new Map<string, CompatResult>();
  #client: InjectingClient | null = null;
  #chain: Promise<void> = Promise.resolve();
  #unminified = false;
  #pageLoads = 0;

  /** Where a failed installation goes (the engine's report; a log line when absent). */
  readonly #report: (event: string, error: unknown) => void;

  constructor(
    fixes: readonly LoadedFix[],
    log: Logger,
    report?: (event: string, error: unknown) => void,
  ) {
    this.#fixes = fixes;
    this.#log = log;
    this.#report =
      report ??
      ((event, error) => log.warn({ err: error, event }, 'installing the compat fixes failed'));
    for (const fix of fixes) {
      this.#results.set(fix.id, { id: fix.id, source: fix.source, needed: null, applied: false });
    }
  }

  /** Hooks the client's `inject()` (on this instance only). */
  attach(client: InjectingClient): void {
    this.#client = client;
    const inject = client.inject;
    if (typeof inject !== 'function') return;
    client.inject = async (...args: unknown[]) => {
      this.#pageLoads += 1;
      guardSyncedBinding(
        client.pupPage,
        () => this.#pageLoads,
        (load) => this.#log.debug({ load }, 'a second synced event on this page load dropped'),
      );
      this.#unminified = unminifyPageErrors(client.pupPage) || this.#unminified;
      const result = await inject.apply(client, args);
      void this.#queue('injected');
      return result;
    };
  }

  /**
   * Installs every fix now (READY); resolves when done, or after READY_WAIT_MS (the rest goes on
   * in the background); null when there is no page to install into (no browser).
   */
  ready(): Promise<void> | null {
    if (!this.#page()) return null;
    this.#unminified = unminifyPageErrors(this.#client?.pupPage) || this.#unminified;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, READY_WAIT_MS)));
    return Promise.race([this.#queue('ready'), cap]).finally(() => clearTimeout(timer));
  }

  /** Page loads so far (whatsapp-web.js injects once per load: the first and every reload). */
  get pageLoads(): number {
    return this.#pageLoads;
  }

  /** The last known state of every fix, and of the unminified page errors. */
  results(): CompatResult[] {
    const pageErrors: CompatResult = {
      id: 'page-errors',
      source: 'builtin',
      needed: true,
      applied: this.#unminified,
    };
    return [pageErrors, ...this.#results.values()].map((r) => ({ ...r }));
  }

  /** Probes every fix again (health checks): `needed` may change once a guard acted. */
  async probe(): Promise<CompatResult[]> {
    const page = this.#page();
    if (page) {
      for (const fix of this.#fixes) {
        const last = this.#results.get(fix.id)!;
        try {
          const answer = (await runInPage(page, fix.probe, STEP_TIMEOUT_MS)) as ProbeAnswer;
          last.needed = answer.needed ?? last.needed;
          if (answer.detail || fix.disabled) last.detail = describe(fix, answer.detail);
        } catch (error) {
          last.detail = `probe failed: ${errorText(error)}`;
        }
      }
    }
    return this.results();
  }

  #page(): EvaluatingPage | null {
    const page = this.#client?.pupPage as EvaluatingPage | null | undefined;
    return page && typeof page.evaluate === 'function' ? page : null;
  }

  #queue(phase: CompatPhase): Promise<void> {
    const run = this.#chain.then(() => this.#install(phase));
    this.#chain = run.catch((error: unknown) => this.#report(`compat:${phase}`, error));
    return this.#chain;
  }

  async #install(phase: CompatPhase): Promise<void> {
    const page = this.#page();
    if (!page) return;
    for (const fix of this.#fixes) {
      if (phase === 'injected' && fix.phase !== 'injected') continue;
      const result = await installOne(page, fix);
      const before = this.#results.get(fix.id);
      this.#results.set(fix.id, result);
      if (result.applied && !before?.applied) {
        this.#log.info({ fix: fix.id, detail: result.detail }, 'compat fix installed');
      } else if (result.needed && !result.applied) {
        this.#log.warn(
          { fix: fix.id, detail: result.detail },
          'compat fix needed but not installed',
        );
      }
    }
  }
}

async function installOne(page: EvaluatingPage, fix: LoadedFix): Promise<CompatResult> {
  const base = { id: fix.id, source: fix.source };
  let probe: ProbeAnswer;
  try {
    probe = (await runInPage(page, fix.probe, STEP_TIMEOUT_MS)) as ProbeAnswer;
  } catch (error) {
    return { ...base, needed: null, applied: false, detail: `probe failed: ${errorText(error)}` };
  }
  const needed = probe.needed === true ? true : probe.needed === false ? false : null;
  if (fix.disabled) return { ...base, needed, applied: false, detail: describe(fix, probe.detail) };
  if (needed === false) {
    return { ...base, needed, applied: false, ...(probe.detail ? { detail: probe.detail } : {}) };
  }
  try {
    const answer = (await runInPage(page, fix.fix, STEP_TIMEOUT_MS)) as FixAnswer;
    const detail = answer.detail ?? probe.detail;
    return { ...base, needed, applied: answer.applied === true, ...(detail ? { detail } : {}) };
  } catch (error) {
    return { ...base, needed, applied: false, detail: `fix failed: ${errorText(error)}` };
  }
}

/** A probe's detail; a disabled fix says so first. */
function describe(fix: LoadedFix, detail: string | undefined): string | undefined {
  if (!fix.disabled) return detail;
  return `disabled (engine.compat.disable)${detail ? `; ${detail}` : ''}`;
}
