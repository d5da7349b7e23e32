/**
 * Catches side effects a replayed conversation would repeat: while a conversation's own code runs,
 * a send that does not go through the conversation's API fails with CONVERSATION_SIDE_EFFECT
 * (a replay after a restart would send it again). Ground floor: imports nothing above errors.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { WakitError } from '../errors/index.js';

interface Scope {
  /** The conversation whose code is running. */
  readonly conversation: string;
  /** True inside the conversation's own effects (say, external). */
  readonly allowed: boolean;
}

const storage = new AsyncLocalStorage<Scope>();

/** Runs a conversation's code: effects outside its API are refused inside `fn`. */
export function runGuarded<T>(conversation: string, fn: () => T): T {
  return storage.run({ conversation, allowed: false }, fn);
}

/** Runs one of the conversation's own effects (its sends, `external`). */
export function runAllowed<T>(fn: () => T): T {
  const scope = storage.getStore();
  return scope ? storage.run({ ...scope, allowed: true }, fn) : fn();
}

/** Runs `fn` outside any conversation (timers armed from a conversation's code fire outside it). */
export function runOutside<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** Throws CONVERSATION_SIDE_EFFECT when called from a conversation's code outside its API. */
export function assertEffectAllowed(what: string): void {
  const scope = storage.getStore();
  if (!scope || scope.allowed) return;
  throw new WakitError(
    'CONVERSATION_SIDE_EFFECT',
    `Conversation ${scope.conversation} tried to ${what} outside its own API: a replay after a restart ` +
      'would do it again. Use conv.say() to send, or wrap the effect in conv.external(() => …)',
    { details: { conversation: scope.conversation, effect: what } },
  );
}
