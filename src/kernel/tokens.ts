/**
 * The kernel's DI tokens, typed: `container.resolve(OUTBOX)` is an `OutboxStore`. What each one is,
 * its lifetime and its default provider: docs/kernel.md. The tokens a user may replace or inject
 * are re-exported by ./public-tokens.ts. The services built on clients (client manager, admin,
 * plugin host, fleet) have theirs in ./service-tokens.ts: their classes inject tokens from here,
 * so naming their types here would make an import cycle.
 */
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import type { SessionStore } from '../auth/session-store.js';
import type { EngineFactory } from '../engines/engine.js';
import type { SimulatorSlot } from '../engines/engine-for-config.js';
import type { WakitConfig } from '../config/schema.js';
import type { MediaResolver } from '../client/media/media-resolver.js';
import type { Clock } from './clock.js';
import type { ErrorSink } from './error-sink.js';
import type { OutboxStore } from '../queue/outbox/index.js';
import type { OutboundQueue, SendGate } from '../queue/index.js';
import type { PlacementFactory } from '../client/core/client-placement.js';
import type { ClientRegistry } from './client-registry.js';
import type { EventLoopMonitor } from './event-loop-monitor.js';
import type { Lifecycle } from './lifecycle.js';
import type { EventBus } from '../events/event-bus.js';

/** A typed DI token: a symbol that remembers the type it resolves to. */
export type Token<T> = InjectionToken<T> & { readonly __type?: T };

/**
 * The token named `name`: a registered symbol (`Symbol.for`), so every copy of this module has the
 * same one: code loaded with `import()` (src/cluster) registers what the SDK resolves, also where
 * a test runner loads that code as a second copy. Names are unique.
 */
export function token<T>(name: string): Token<T> {
  return Symbol.for(`wakit.${name}`);
}

/** Builds the outbound queue of one client (its name, logger and send gate). */
export type QueueFactory = (scope: {
  client: string;
  logger: Logger;
  gate: SendGate | undefined;
}) => OutboundQueue;

/** What a session store's lease says about its holder (a fleet names the node and its address). */
export interface SessionHolder {
  holderId?: string;
  holderUrl?: () => string;
}

/** The engine `config.engine` names: its factory, and the simulator's network if it is that one. */
export interface EngineChoice {
  factory: EngineFactory;
  simulator?: SimulatorSlot;
}

// ── root: one per SDK ─────────────────────────────────────────────────────────────────────────

/** The container resolving it (the root, or a client's child container). */
export const CONTAINER = token<DependencyContainer>('container');
export const CONFIG = token<Readonly<WakitConfig>>('config');
/** Where relative paths of the config resolve from. */
export const BASE_DIR = token<string>('baseDir');
/** `SdkOptions.testing`: plugins turn their outbound side effects off. */
export const TESTING = token<boolean>('testing');
/** The SDK's logger; in a client's child container, that client's child logger. */
export const LOGGER = token<Logger>('logger');
export const CLOCK = token<Clock>('clock');
export const ERROR_SINK = token<ErrorSink>('errorSink');
/** The SDK's phases and close hooks. */
export const LIFECYCLE = token<Lifecycle>('lifecycle');
export const ENGINE = token<EngineChoice>('engine');
export const ENGINE_FACTORY = token<EngineFactory>('engineFactory');
/** The simulator's network slot (engine.type `simulator`: the network once loaded), else undefined. */
export const SIMULATOR = token<SimulatorSlot | undefined>('simulator');
/** A fleet's holder is known once the fleet's code is loaded: a promise of it. */
export const SESSION_HOLDER = token<SessionHolder | Promise<SessionHolder>>('sessionHolder');
export const SESSION_STORE = token<SessionStore>('sessionStore');
export const MEDIA_RESOLVER = token<MediaResolver>('mediaResolver');
export const OUTBOX = token<OutboxStore>('outbox');
/** Where clients added at run time are kept. */
export const CLIENT_REGISTRY = token<ClientRegistry>('clientRegistry');
/** Where each client runs, as a strategy per client (one server: `localPlacement`). */
export const PLACEMENT = token<PlacementFactory>('placement');
/** Every client's events, for SSE, webhooks, metrics and plugins (src/events/). */
export const EVENT_BUS = token<EventBus>('eventBus');
export const QUEUE_FACTORY = token<QueueFactory>('queueFactory');
export const EVENT_LOOP = token<EventLoopMonitor>('eventLoop');

// ── per client: resolved in the client's child container ─────────────────────────────────────

export const CLIENT_NAME = token<string>('clientName');
/** Asked before each send of the client goes out: go, or wait until a due time. */
export const SEND_GATE = token<SendGate | undefined>('sendGate');
export const OUTBOUND_QUEUE = token<OutboundQueue>('outboundQueue');
