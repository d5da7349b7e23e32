/**
 * A conversation store that is still being loaded (the fleet's, on Redis: its code is loaded with
 * `import()` only in a fleet, so one server never loads Redis). Each call waits for it.
 */
import type { ConversationStore } from './conversation-store.js';

export function deferredConversationStore(
  kind: ConversationStore['kind'],
  later: Promise<ConversationStore>,
): ConversationStore {
  // not reported: a store that fails to load fails each call with its error
  later.catch(() => undefined);
  const on = async <T>(op: (store: ConversationStore) => Promise<T>): Promise<T> => op(await later);
  return {
    kind,
    getState: (key) => on((s) => s.getState(key)),
    putState: (key, value, expected, expiresAt) =>
      on((s) => s.putState(key, value, expected, expiresAt)),
    deleteState: (key) => on((s) => s.deleteState(key)),
    listStates: (prefix) => on((s) => s.listStates(prefix)),
    begin: (record) => on((s) => s.begin(record)),
    active: (client, chatId, member) => on((s) => s.active(client, chatId, member)),
    get: (id) => on((s) => s.get(id)),
    append: (id, index, step, wait) => on((s) => s.append(id, index, step, wait)),
    setWait: (id, wait) => on((s) => s.setWait(id, wait)),
    steps: (id) => on((s) => s.steps(id)),
    end: (id) => on((s) => s.end(id)),
    list: (client) => on((s) => s.list(client)),
    interrupted: (client) => on((s) => s.interrupted(client)),
    timers: (client) => on((s) => s.timers(client)),
    close: () =>
      later.then(
        (s) => s.close(),
        () => {
          // not reported: a store that never loaded has nothing to close (its calls failed)
        },
      ),
  };
}
