import { WakitError } from '../../errors/index.js';
import { callSafely } from '../../kernel/listeners.js';
import type { Attempt } from './attempt.js';
import type { AttemptHost } from './attempt-host.js';
import { mapDisconnectReason } from './map-errors.js';
import { toAckUpdate, toMessageData } from './map-message.js';
import { wireGroupEvents } from './group-events.js';
import type { CallLike, MessageLike, PollVoteLike } from './types.js';
import { toPollVote } from './messages.js';
import { withSerializedId } from './serialized-id.js';
import { wireActionEvents } from './actions.js';

/**
 * Subscribes to a whatsapp-web.js Client and turns its events into engine events. Events of an
 * attempt that is no longer live are ignored, so an attempt ends at most once.
 *
 * `change_state` TIMEOUT while READY: WhatsApp Web would try to reconnect by itself, but the
 * engine does not wait for that; it ends the attempt with `connection_lost` and the client's
 * supervisor restarts from the saved session (one place decides about reconnecting).
 */
export function wireClient(attempt: Attempt, host: AttemptHost): void {
  const { client } = attempt;
  const live =
    <A extends unknown[]>(handler: (...args: A) => void) =>
    (...args: A): void => {
      if (!host.isLive(attempt)) return;
      callSafely(handler, args, (error) =>
        host.log.error({ err: error }, 'handling a whatsapp-web.js event failed'),
      );
    };
  client.on(
    'qr',
    live((qr: string) => {
      attempt.sawQr = true;
      host.loaded(attempt);
      host.fire('qr', qr);
    }),
  );
  client.on(
    'authenticated',
    live(() => {
      const load = attempt.compat?.pageLoads ?? 0;
      if (attempt.authenticatedOnLoad === load) return; // a second synced event on this page
      attempt.authenticatedOnLoad = load;
      attempt.authenticated = true;
      host.loaded(attempt);
      host.fire('authenticated', { restored: !attempt.sawQr });
    }),
  );
  client.on(
    'auth_failure',
    live((message: unknown) => {
      host.log.error({ message: String(message) }, 'whatsapp-web.js authentication failed');
      host.authFailed(
        attempt,
        new WakitError('AUTH_FAILED', `Authentication failed: ${String(message)}`),
      );
    }),
  );
  client.on(
    'ready',
    live(() => {
      // whatsapp-web.js emits READY on every synced event (a resync after a reconnect, a replay):
      // the engine's READY comes at most once per page load
      const load = attempt.compat?.pageLoads ?? 0;
      if (attempt.readyOnLoad === load) {
        host.log.debug({ load }, 'a second whatsapp-web.js ready on the same page load ignored');
        return;
      }
      attempt.readyOnLoad = load;
      attempt.ready = true;
      attempt.lastMessageAt = host.now();
      host.loaded(attempt);
      const info = client.info;
      if (info) attempt.identity = { id: info.wid._serialized, pushname: info.pushname ?? '' };
      // The compat fixes go into the page before anyone may send (null: no page to fix).
      const compat = attempt.compat?.ready();
      if (!compat) host.fire('ready');
      else void compat.then(() => host.isLive(attempt) && host.fire('ready'));
    }),
  );
  client.on(
    'message',
    live((message: MessageLike) => {
      attempt.lastMessageAt = host.now();
      host.remember(withSerializedId(message));
      host.fire('message', toMessageData(message, host.ownId()));
    }),
  );
  client.on(
    'message_create',
    live((message: MessageLike) => {
      attempt.lastMessageAt = host.now();
      host.remember(withSerializedId(message));
      attempt.notifyCreated(message);
      host.fire('message.create', toMessageData(message, host.ownId()));
    }),
  );
  client.on(
    'message_ack',
    live((message: MessageLike, ack: number) => {
      host.fire('message.ack', toAckUpdate(message, ack));
    }),
  );
  wireActionEvents({
    client,
    live,
    fire: host.fire.bind(host),
    ownId: () => host.ownId(),
    remember: (message) => host.remember(message),
  });
  client.on(
    'call',
    live((call: CallLike) => {
      const data = attempt.calls.offer(call);
      if (data) host.fire('call', data);
    }),
  );
  client.on(
    'vote_update',
    live((vote: PollVoteLike) => {
      const mapped = toPollVote(vote);
      if (mapped) host.fire('poll.vote', mapped);
    }),
  );
  client.on(
    'change_state',
    live((state: string) => {
      host.setWaState(state);
      if (state === 'TIMEOUT' && attempt.ready) {
        host.log.warn('WhatsApp Web lost its connection (TIMEOUT)');
        host.end(attempt, 'connection_lost');
      }
    }),
  );
  client.on(
    'disconnected',
    live((reason: unknown) => {
      const mapped = mapDisconnectReason(reason);
      host.log.warn({ reason: String(reason), mapped }, 'whatsapp-web.js disconnected');
      host.end(attempt, mapped);
    }),
  );
  wireGroupEvents(attempt, host, live);
}

/** Puppeteer browser `disconnected`, page `error`/`close` that we did not cause end the attempt. */
export function watchBrowser(attempt: Attempt, host: AttemptHost): void {
  attempt.watchBrowser(() => {
    if (!host.isLive(attempt)) return;
    host.log.error('Chromium went away');
    host.end(attempt, 'browser_crashed');
  });
}
