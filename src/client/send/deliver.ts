import { WakitError, isWakitError } from '../../errors/index.js';
import type { Engine } from '../../engines/engine.js';
import type { EngineContent } from '../../engines/types.js';
import { isMessageKindContent } from '../../engines/ports/messages.js';
import type { MediaResolver } from '../media/media-resolver.js';
import type { ClientState, OutgoingContent } from '../types.js';
import type { Clock } from '../../kernel/clock.js';
import { deliverAction, typingDelayMs } from './deliver-action.js';
import { typingOf } from './typing.js';
import type { ChatState } from '../../engines/ports/presence.js';
import type { EngineHealthMonitor } from '../connection/engine-health.js';

/** What making one send needs of its client. */
export interface DeliveryDeps {
  client: string;
  state(): ClientState;
  engine(): Engine | null;
  media: MediaResolver;
  /** `queue.typingBeforeSend`: show "typing…" before a text, for a time by its length. */
  typing?: { clock: Clock };
  /** The client's clock: the per-send `typing` option waits on it. */
  clock?: Clock;
  /** Engine health: a send whose capability is broken on this build is ENGINE_INCOMPATIBLE. */
  health?: Pick<EngineHealthMonitor, 'blocked' | 'recheck'>;
}

/**
 * Makes one queued send through the engine (the queue's job). A client that is not READY, or a
 * send lost in flight by a disconnect, is CONNECTION_LOST: transient, so the queue (paused while
 * not READY) retries it after the reconnect. A send accepted for another account than the one
 * linked now is refused with SESSION_EXPIRED: it is never sent from another account. A send
 * whose capability is known broken on the engine's build fails at once with ENGINE_INCOMPATIBLE
 * (the queue holds it); so does one the engine fails when a health check then finds it broken.
 */
export async function deliver(
  deps: DeliveryDeps,
  chatId: string,
  content: OutgoingContent,
  account: string | null,
): Promise<{ id: string }> {
  const engine = deps.engine();
  if (!engine || deps.state() !== 'READY') {
    throw new WakitError('CONNECTION_LOST', `Client ${deps.client} is ${deps.state()}`);
  }
  const me = engine.me()?.id;
  if (account && me && account !== me) {
    throw new WakitError(
      'SESSION_EXPIRED',
      `Accepted for account ${account}, but ${me} is linked now: not sent from another account`,
    );
  }
  const blocked = deps.health?.blocked(content.kind);
  if (blocked) throw blocked;
  try {
    const shown = typingOf(content);
    if (shown && (deps.clock ?? deps.typing?.clock)) {
      await showFirst(deps, engine, chatId, shown.state, shown.ms);
    } else if (deps.typing && content.kind === 'text') {
      await showFirst(deps, engine, chatId, 'typing', typingDelayMs(content.text));
    }
    return await make(engine, deps.media, chatId, content);
  } catch (error) {
    if (deps.state() !== 'READY' && !isWakitError(error, 'CHAT_NOT_FOUND')) {
      throw new WakitError('CONNECTION_LOST', 'The connection was lost during the send', {
        cause: error,
      });
    }
    if (deps.health && isWakitError(error, 'ENGINE_ERROR')) {
      const incompatible = await deps.health.recheck(content.kind);
      if (incompatible)
        throw new WakitError(incompatible.code, incompatible.message, {
          details: incompatible.details,
          cause: error,
        });
    }
    throw error;
  }
}

async function make(
  engine: Engine,
  media: MediaResolver,
  chatId: string,
  content: OutgoingContent,
): Promise<{ id: string }> {
  if (content.kind === 'forward') return engine.forward(content.messageId, chatId);
  let engineContent: EngineContent;
  if (content.kind === 'text' || isMessageKindContent(content)) {
    engineContent = content;
  } else if (!('source' in content)) {
    return deliverAction(engine, chatId, content);
  } else {
    engineContent = {
      kind: content.kind,
      media: await media.resolve(content.source, content.filename),
      ...(content.caption !== undefined ? { caption: content.caption } : {}),
      ...(content.quotedMessageId !== undefined
        ? { quotedMessageId: content.quotedMessageId }
        : {}),
    };
  }
  return engine.send(chatId, engineContent);
}

/**
 * Shows "typing…" (or "recording…") for `ms`, then lets the send go. A failing indicator does not
 * stop the message (the send itself reports a missing chat); a client that stopped meanwhile does.
 */
async function showFirst(
  deps: DeliveryDeps,
  engine: Engine,
  chatId: string,
  state: ChatState,
  ms: number,
): Promise<void> {
  try {
    await engine.ops.presence.sendState(chatId, state);
  } catch {
    // not reported: the typing indicator is best effort; the send goes on without it
    return;
  }
  const clock = (deps.clock ?? deps.typing?.clock)!;
  await new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
  if (deps.state() !== 'READY') {
    throw new WakitError('CONNECTION_LOST', `Client ${deps.client} is ${deps.state()}`);
  }
}
