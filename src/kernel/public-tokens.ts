/**
 * The kernel as users see it (the future `wakitjs/kernel` entry): the tokens of the services a
 * user may replace, with `createSdk(config, { services: (s) => s.register(TOKEN, provider) })`,
 * and those a replacement class may inject with `@inject(TOKEN)`. docs/kernel.md.
 *
 * `inject` and `injectable` are tsyringe's, re-exported: a class registered with `useClass` must be
 * decorated by the same tsyringe the SDK uses.
 */
export { inject, injectable } from 'tsyringe';
export {
  // replaceable (one per SDK)
  CLOCK,
  SESSION_STORE,
  OUTBOX,
  CLIENT_REGISTRY,
  ENGINE_FACTORY,
  MEDIA_RESOLVER,
  QUEUE_FACTORY,
  // replaceable (one per client)
  SEND_GATE,
  // to inject
  CONFIG,
  LOGGER,
  ERROR_SINK,
  CLIENT_NAME,
  type Token,
  type QueueFactory,
} from './tokens.js';
export {
  // replaceable (one per client)
  CONNECTION_SUPERVISOR,
  SEND_INTAKE,
  type IntakeFactory,
  type IntakeWiring,
  type SupervisorFactory,
  type SupervisorWiring,
} from './client-services.js';
export type { ServiceProvider, ServiceRegistry } from './service-overrides.js';
export type { Clock } from './clock.js';
export type { AcquireOptions, SessionLease, SessionStore } from '../auth/session-store.js';
export type { OutboxStore } from '../queue/outbox/index.js';
export type { GateAnswer, SendGate } from '../queue/index.js';
