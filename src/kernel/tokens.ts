import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import type { SessionStore } from '../auth/session-store.js';
import type { EngineFactory } from '../engines/engine.js';
import type { WakitConfig } from '../config/schema.js';
import type { MediaResolver } from '../client/media-resolver.js';
import type { Clock } from './clock.js';
import type { ErrorSink } from './error-sink.js';
import type { OutboxStore } from '../queue/outbox/index.js';
import type { OutboundQueue } from '../queue/index.js';
import type { Ownership } from '../cluster/ownership.js';
import type { Governor } from '../governor/governor.js';

/** A typed DI token: a unique symbol that remembers the type it resolves to. */
export type Token<T> = InjectionToken<T> & { readonly __type?: T };

export function token<T>(name: string): Token<T> {
  return Symbol(`wakit.${name}`);
}

/** Root container. */
export const CONTAINER = token<DependencyContainer>('container');
export const CONFIG = token<Readonly<WakitConfig>>('config');
export const LOGGER = token<Logger>('logger');
export const CLOCK = token<Clock>('clock');
export const SESSION_STORE = token<SessionStore>('sessionStore');
export const ENGINE_FACTORY = token<EngineFactory>('engineFactory');
export const MEDIA_RESOLVER = token<MediaResolver>('mediaResolver');
export const ERROR_SINK = token<ErrorSink>('errorSink');
export const OUTBOX = token<OutboxStore>('outbox');
/** Which clients this process runs (a fleet's placement; one server: all). */
export const OWNERSHIP = token<Ownership>('ownership');
/** The send governor (docs/safety.md); not registered when its preset is `off`. */
export const GOVERNOR = token<Governor>('governor');

/** Per-client child container. */
export const CLIENT_NAME = token<string>('clientName');
export const OUTBOUND_QUEUE = token<OutboundQueue>('outboundQueue');
