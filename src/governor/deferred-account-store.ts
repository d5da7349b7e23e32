import type { AccountStore } from './account-store.js';

/**
 * An account store that is there once `loading` resolves (the fleet's Redis store, whose code is
 * loaded with `import()`): every call waits for it, in the order made. A store that fails to load
 * fails each call with the load's error.
 */
export function deferredAccountStore(
  kind: AccountStore['kind'],
  loading: Promise<AccountStore>,
): AccountStore {
  // not reported: each call rejects with the load's error
  loading.catch(() => undefined);
  return new Proxy({ kind } as AccountStore, {
    get(_target, key) {
      // not a thenable: `await store` must give the store itself
      if (key === 'kind' || key === 'then') return key === 'kind' ? kind : undefined;
      return async (...args: unknown[]) => {
        const store = (await loading) as unknown as Record<
          PropertyKey,
          (...a: unknown[]) => unknown
        >;
        return store[key](...args);
      };
    },
  });
}
