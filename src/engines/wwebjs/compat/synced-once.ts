/**
 * whatsapp-web.js 1.34.7 runs its whole "synced" handler (`onAppStateHasSyncedEvent`: emit
 * `authenticated`, load its utilities if absent, attach its event listeners, emit `ready`) on every
 * `change:hasSynced` of the page (Client.js:297-370, 406-410): a resync after a reconnect, or a
 * synced call the ready-race fix makes while the page's own one is already on its way, would run
 * it twice, two of them at once, with a second READY and listeners attached twice. The guard lets
 * one call per page load reach the handler, in Node, where the calls arrive in the order the page
 * made them. It wraps `exposeFunction` of this page object only (not puppeteer's prototype).
 */

type Expose = (name: string, fn: (...args: unknown[]) => unknown) => Promise<unknown>;
interface ExposingPage {
  exposeFunction?: Expose;
  [GUARDED]?: true;
}
const GUARDED = Symbol.for('wakit.syncedOnce');
/** The binding whatsapp-web.js calls from its `change:hasSynced` listener. */
export const SYNCED_BINDING = 'onAppStateHasSyncedEvent';

/**
 * Guards the synced binding of `page` when whatsapp-web.js exposes it: `pageLoad()` names the
 * current page load; a second call in the same load is dropped (`onDropped` is told). Idempotent.
 */
export function guardSyncedBinding(
  page: unknown,
  pageLoad: () => number,
  onDropped: (load: number) => void,
): boolean {
  const target = page as ExposingPage | null;
  if (!target || typeof target.exposeFunction !== 'function') return false;
  if (target[GUARDED]) return true;
  const expose = target.exposeFunction.bind(target);
  target.exposeFunction = (name, fn) => {
    if (name !== SYNCED_BINDING) return expose(name, fn);
    let calledOnLoad: number | null = null;
    return expose(name, (...args: unknown[]) => {
      const load = pageLoad();
      if (calledOnLoad === load) {
        onDropped(load);
        return undefined;
      }
      calledOnLoad = load;
      return fn(...args);
    });
  };
  target[GUARDED] = true;
  return true;
}
