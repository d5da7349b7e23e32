/**
 * A client's own services, built in its child container (docs/kernel.md): the connection
 * supervisor and the send intake. The container gives what they need of the SDK (config, session
 * store, clock, error sink, outbox, media resolver) and of the client's scope (name, logger,
 * queue); the client gives its own wiring (its state machine, events, engine and delivery). So each
 * token holds a factory, one per client, that the client calls once with that wiring.
 */
import type { DependencyContainer } from 'tsyringe';
import {
  ConnectionSupervisor,
  type SupervisorOptions,
} from '../client/connection/connection-supervisor.js';
import { SendIntake, type SendIntakeDeps } from '../client/send/send-intake.js';
import {
  CLIENT_NAME,
  CLOCK,
  CONFIG,
  ERROR_SINK,
  LOGGER,
  MEDIA_RESOLVER,
  OUTBOUND_QUEUE,
  OUTBOX,
  SESSION_STORE,
  token,
} from './tokens.js';

/** What a client gives its connection supervisor: its state machine, events and engines. */
export type SupervisorWiring = Pick<
  SupervisorOptions,
  'createEngine' | 'machine' | 'emit' | 'onDisconnect'
>;
export type SupervisorFactory = (wiring: SupervisorWiring) => ConnectionSupervisor;

/** What a client gives its send intake: the linked account and how a send is made. */
export type IntakeWiring = Pick<SendIntakeDeps, 'account' | 'deliver' | 'ready'>;
export type IntakeFactory = (wiring: IntakeWiring) => SendIntake;

/** The client's connection supervisor: starts, reconnects and stops its engine, holds its lease. */
export const CONNECTION_SUPERVISOR = token<SupervisorFactory>('connectionSupervisor');
/** The client's send intake: journals, queues and tracks each accepted send. */
export const SEND_INTAKE = token<IntakeFactory>('sendIntake');

/** The default CONNECTION_SUPERVISOR of the client whose child container `c` is. */
export function supervisorOf(c: DependencyContainer): SupervisorFactory {
  const base = {
    name: c.resolve(CLIENT_NAME),
    config: c.resolve(CONFIG),
    store: c.resolve(SESSION_STORE),
    log: c.resolve(LOGGER),
    errors: c.resolve(ERROR_SINK),
    clock: c.resolve(CLOCK),
  };
  return (wiring) => new ConnectionSupervisor({ ...base, ...wiring });
}

/** The default SEND_INTAKE of the client whose child container `c` is. */
export function intakeOf(c: DependencyContainer): IntakeFactory {
  const { queue } = c.resolve(CONFIG);
  const base = {
    schedule: { ...queue.schedule, maxSize: queue.maxSize },
    client: c.resolve(CLIENT_NAME),
    queue: c.resolve(OUTBOUND_QUEUE),
    outbox: c.resolve(OUTBOX),
    media: c.resolve(MEDIA_RESOLVER),
    clock: c.resolve(CLOCK),
    log: c.resolve(LOGGER),
  };
  return (wiring) => new SendIntake({ ...base, ...wiring });
}
