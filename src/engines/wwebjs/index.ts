/**
 * The whatsapp-web.js engine: the only code in wakit that imports whatsapp-web.js or puppeteer
 * (and only lazily, on the first start).
 */
import type { EngineFactory } from '../engine.js';
import type { WwebjsEngineConfig } from './types.js';
import type { WwebjsEngineDeps } from './engine-deps.js';
import { WwebjsEngine } from './wwebjs-engine.js';

export function createWwebjsEngineFactory(
  config: WwebjsEngineConfig,
  deps: WwebjsEngineDeps = {},
): EngineFactory {
  return (context) => new WwebjsEngine(config, context, deps);
}

export { WwebjsEngine } from './wwebjs-engine.js';
export type { WwebjsEngineDeps } from './engine-deps.js';
export type { WwebjsEngineConfig, WwebjsBindings, ClientLike, MessageLike } from './types.js';
export { resolveExecutablePath, buildLaunchOptions, DEFAULT_BROWSER_PATHS } from './browser.js';
export { RemoteAuthStoreAdapter } from './remote-auth-store.js';
