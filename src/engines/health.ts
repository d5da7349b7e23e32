/**
 * Engine health: what an engine can still do on the WhatsApp Web build it runs. Engines answer
 * `ops.account.checkHealth()` with a cheap probe of each capability; the client runs it after
 * READY, periodically and on demand, and holds sends whose capability is broken
 * (ENGINE_INCOMPATIBLE).
 */

/** The capabilities probed, by name. */
export const CAPABILITIES = [
  /** Message keys and ids serialize to `<fromMe>_<chat>_<id>` (acks, quotes, downloads need it). */
  'ids.serialize',
  /** The text send path exists. */
  'send.text',
  /** The media preparation and upload path exists and keeps the message's own id. */
  'send.media',
  /** Received media can be downloaded. */
  'media.download',
  /** The LID ↔ phone look-up exists. */
  'contacts.lid',
  /** Group metadata can be read. */
  'groups.metadata',
  /** A message can be forwarded: the forward module is loaded or loadable. */
  'send.forward',
  /** A group's description can be changed: the job takes the call whatsapp-web.js makes. */
  'groups.description',
  /** New messages reach the engine: the page's event bridge to whatsapp-web.js is alive. */
  'events.inbound',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

export interface CapabilityResult {
  ok: boolean;
  /** Why it is broken (the page's own error text), or what was checked. */
  detail?: string;
}

/** One compat fix as the engine found it on this build (wwebjs engine only). */
export interface CompatResult {
  id: string;
  /** `builtin`, or the path of an operator's fix (`engine.compat.extra`). */
  source: string;
  /** Whether this build needs it; null when the probe itself failed or did not run yet. */
  needed: boolean | null;
  /** Installed (and working) on this page. */
  applied: boolean;
  detail?: string;
}

/**
 * The WhatsApp Web build asked for against the one running (engines that load a pinned build):
 * `held` the pin holds; `mismatch` another build runs (an archive miss fell back to the live
 * page, or a service worker served another build); `unpinned` no pin was asked for (live);
 * `unknown` the page did not say which build it runs.
 */
export interface PinCheck {
  /** The pinned build (`engine.webVersion`, without the archive's `-alpha` suffix); null: none. */
  pinned: string | null;
  /** The build the page reports (`window.Debug.VERSION`); null when unknown. */
  running: string | null;
  status: 'held' | 'mismatch' | 'unpinned' | 'unknown';
}

/** What an engine reports from one probe run. */
export interface EngineProbe {
  /** The WhatsApp Web build (`2.3000.x`), or the simulated one; null when unknown. */
  build: string | null;
  /** The library driving it, e.g. `whatsapp-web.js 1.34.7`; null for engines without one. */
  library: string | null;
  capabilities: Record<Capability, CapabilityResult>;
  compat: CompatResult[];
  /** The pin against the running build (whatsapp-web.js engine); absent for engines without. */
  pin?: PinCheck;
}

/** The client's view: the last probe run with its time and verdict. */
export interface EngineHealth extends EngineProbe {
  /** `degraded` when any capability is broken (a pin that does not hold is `pin.status`). */
  status: 'ok' | 'degraded';
  broken: Capability[];
  checkedAt: string;
}

const MEDIA_KINDS: ReadonlySet<string> = new Set([
  'image',
  'video',
  'audio',
  'document',
  'sticker',
]);
const NO_CAPABILITY: ReadonlySet<string> = new Set(['seen', 'presence', 'online']);

/**
 * The capabilities a send of `kind` needs (`download`: a media download). Every message needs its
 * id serialized (the queue follows acks by it); media needs the media path; actions on messages
 * find them by id.
 */
export function capabilitiesFor(kind: string): Capability[] {
  if (NO_CAPABILITY.has(kind)) return [];
  if (MEDIA_KINDS.has(kind)) return ['ids.serialize', 'send.media'];
  if (kind === 'download') return ['ids.serialize', 'media.download'];
  if (kind === 'forward') return ['ids.serialize', 'send.forward'];
  if (kind === 'reaction' || kind === 'edit' || kind === 'delete') {
    return ['ids.serialize'];
  }
  return ['ids.serialize', 'send.text'];
}

/** An all-good capability table (engines start from it and mark what is broken). */
export function allCapabilities(): Record<Capability, CapabilityResult> {
  const result = {} as Record<Capability, CapabilityResult>;
  for (const name of CAPABILITIES) result[name] = { ok: true };
  return result;
}
