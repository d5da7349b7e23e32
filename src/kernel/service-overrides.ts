/**
 * How a user replaces a kernel service (`SdkOptions.services`): a value, a class or a factory
 * registered under one of the replaceable tokens, with the lifetime of the service it replaces.
 */
import {
  Lifecycle as Scope,
  type ClassProvider,
  type DependencyContainer,
  type InjectionToken,
} from 'tsyringe';
import { WakitError } from '../errors/index.js';
import { once, perClient } from './provider-scopes.js';
import { CONNECTION_SUPERVISOR, SEND_INTAKE } from './client-services.js';
import {
  CLIENT_REGISTRY,
  CLOCK,
  ENGINE_FACTORY,
  MEDIA_RESOLVER,
  OUTBOX,
  QUEUE_FACTORY,
  SEND_GATE,
  SESSION_STORE,
  type Token,
} from './tokens.js';

/**
 * A replacement: an instance (`useValue`), a class (`useClass`: built by the container, its
 * constructor parameters marked with `@inject(TOKEN)`), or a factory (`useFactory`: gets the
 * container). Classes and factories are built once per SDK, or once per client for SEND_GATE,
 * CONNECTION_SUPERVISOR and SEND_INTAKE.
 */
type Class<T> = ClassProvider<T>['useClass'];

export type ServiceProvider<T> =
  { useValue: T } | { useClass: Class<T> } | { useFactory: (container: DependencyContainer) => T };

export interface ServiceRegistry {
  /** Replaces the service of `token`; CONFIG_INVALID for a token that is not replaceable. */
  register<T>(token: Token<T>, provider: ServiceProvider<T>): ServiceRegistry;
}

type Lifetime = 'sdk' | 'client';

const nameOf = (token: InjectionToken<unknown>): string =>
  typeof token === 'symbol'
    ? (token.description ?? '')
    : typeof token === 'string'
      ? token
      : 'a class';

/** The services a user may replace, with their lifetime. */
const REPLACEABLE = new Map<InjectionToken<unknown>, Lifetime>([
  [CLOCK, 'sdk'],
  [SESSION_STORE, 'sdk'],
  [OUTBOX, 'sdk'],
  [CLIENT_REGISTRY, 'sdk'],
  [ENGINE_FACTORY, 'sdk'],
  [MEDIA_RESOLVER, 'sdk'],
  [QUEUE_FACTORY, 'sdk'],
  [SEND_GATE, 'client'],
  [CONNECTION_SUPERVISOR, 'client'],
  [SEND_INTAKE, 'client'],
]);

/** Registers `provider` for `token` in `root` with the given lifetime. */
export function registerService<T>(
  root: DependencyContainer,
  token: Token<T>,
  provider: ServiceProvider<T>,
  lifetime: Lifetime = 'sdk',
): void {
  if (provider && 'useValue' in provider) {
    root.register(token, { useValue: provider.useValue });
  } else if (provider && typeof (provider as { useClass?: unknown }).useClass === 'function') {
    const { useClass } = provider as { useClass: Class<T> };
    const lifecycle = lifetime === 'sdk' ? Scope.Singleton : Scope.ContainerScoped;
    root.register(token, { useClass }, { lifecycle });
  } else if (provider && typeof (provider as { useFactory?: unknown }).useFactory === 'function') {
    const { useFactory } = provider as { useFactory: (c: DependencyContainer) => T };
    root.register(token, lifetime === 'sdk' ? once(useFactory) : perClient(useFactory));
  } else {
    throw new WakitError(
      'CONFIG_INVALID',
      `The service ${nameOf(token)} needs useValue, useClass or useFactory`,
    );
  }
}

/** The registry handed to `SdkOptions.services`: replaceable tokens only. */
export function serviceRegistry(root: DependencyContainer): ServiceRegistry {
  const registry: ServiceRegistry = {
    register(token, provider) {
      const lifetime = REPLACEABLE.get(token);
      if (!lifetime) {
        const names = [...REPLACEABLE.keys()].map(nameOf).join(', ');
        throw new WakitError(
          'CONFIG_INVALID',
          `${nameOf(token)} is not a replaceable service; these are: ${names}`,
        );
      }
      registerService(root, token, provider, lifetime);
      return registry;
    },
  };
  return registry;
}
