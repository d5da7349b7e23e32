import { WakitError } from '../../errors/index.js';
import {
  CAPABILITIES,
  allCapabilities,
  capabilitiesFor,
  type Capability,
  type EngineProbe,
} from '../health.js';

/** What a simulated build change looks like (`sdk.simulator.build.set`). */
export interface SimBuildChange {
  version?: string;
  /** Capabilities this build breaks (all others work); `[]` repairs everything. */
  broken?: readonly Capability[];
}

/** What the real builds' breaks looked like, per capability (the errors WhatsApp Web threw). */
const BREAKS: Record<Capability, string> = {
  'ids.serialize':
    "DataError: Failed to execute 'get' on 'IDBObjectStore': No key or key range specified.",
  'send.text': "TypeError: Cannot read properties of undefined (reading 'addAndSendMsgToChat')",
  'send.media':
    "Error: Data passed to getter must include an id property (it's how we memoize) but got undefined",
  'media.download': 'InvalidMediaFileType',
  'contacts.lid': "TypeError: Cannot read properties of undefined (reading 'getCurrentLid')",
  'groups.metadata': "TypeError: Cannot read properties of undefined (reading 'find')",
  'send.forward': "TypeError: Cannot read properties of undefined (reading 'forwardMessages')",
  'groups.description': "TypeError: Cannot read properties of undefined (reading 'toJid')",
  'events.inbound': 'no new message reached the engine (the event bridge is not attached)',
};

/**
 * The simulated WhatsApp Web build of one simulator network: a version string and the
 * capabilities it breaks (config `engine.build`). Health probes report them; sends and downloads
 * that need one fail as they did on the real build (ENGINE_ERROR with WhatsApp Web's own text),
 * so the client's health check turns them into held ENGINE_INCOMPATIBLE sends. Changing the build
 * (`set`) is what an upgrade of WhatsApp Web or of wakit looks like to the client.
 */
export class SimBuild {
  #version: string;
  #broken: Set<Capability>;

  constructor(initial: { version: string; broken: readonly Capability[] }) {
    this.#version = initial.version;
    this.#broken = new Set(initial.broken);
  }

  get version(): string {
    return this.#version;
  }

  get broken(): Capability[] {
    return CAPABILITIES.filter((name) => this.#broken.has(name));
  }

  set(change: SimBuildChange): void {
    if (change.version !== undefined) this.#version = change.version;
    if (change.broken !== undefined) {
      for (const name of change.broken) {
        if (!CAPABILITIES.includes(name)) {
          throw new WakitError('VALIDATION_FAILED', `unknown capability "${String(name)}"`, {
            details: { capabilities: CAPABILITIES },
          });
        }
      }
      this.#broken = new Set(change.broken);
    }
  }

  /** What the engine's health probe sees on this build. */
  probe(): EngineProbe {
    const capabilities = allCapabilities();
    for (const name of this.#broken) capabilities[name] = { ok: false, detail: BREAKS[name] };
    return { build: this.#version, library: null, capabilities, compat: [] };
  }

  /** Fails like the real build when `kind` needs a capability this build breaks. */
  check(kind: string): void {
    if (this.#broken.size === 0) return; // every send asks: the usual answer without a list
    const broken = capabilitiesFor(kind).find((name) => this.#broken.has(name));
    if (!broken) return;
    throw new WakitError('ENGINE_ERROR', `WhatsApp Web rejected the call (${BREAKS[broken]})`, {
      details: { reason: 'page_error', build: this.#version },
    });
  }
}
