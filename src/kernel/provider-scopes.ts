/**
 * Provider scopes of the kernel's container: a service built once per SDK (`once`) or once per
 * client (`perClient`).
 */
import {
  instanceCachingFactory,
  instancePerContainerCachingFactory,
  type DependencyContainer,
  type FactoryProvider,
} from 'tsyringe';

/** A provider built once per SDK (the root container), on first resolve. */
export function once<T>(make: (c: DependencyContainer) => T): FactoryProvider<T> {
  return { useFactory: instanceCachingFactory(make) };
}

/** A provider built once per client: resolved in a client's child container, one each. */
export function perClient<T>(make: (c: DependencyContainer) => T): FactoryProvider<T> {
  return { useFactory: instancePerContainerCachingFactory(make) };
}
