import type { SimRecord } from './account.js';
import { StanzaIds, stanzaOf } from './ids.js';

/** Messages kept for forward / quote / download look-ups; older ones are forgotten. */
export const SIM_REGISTRY_LIMIT = 20_000;

/**
 * The network's message registry: the stanza ids it gives out, and the last SIM_REGISTRY_LIMIT
 * messages by id, in a ring indexed by the stanza's sequence number (no hashing, O(1) eviction).
 */
export class SimMessageRegistry {
  readonly #ring = new Array<SimRecord | undefined>(SIM_REGISTRY_LIMIT);
  readonly #stanzas: StanzaIds;

  constructor(random: () => number) {
    this.#stanzas = new StanzaIds(random);
  }

  /** The stanza id of a new message. */
  nextStanza(): string {
    return this.#stanzas.next();
  }

  /** Keeps a message whose stanza id this registry gave out (forgetting the oldest one). */
  remember(record: SimRecord): void {
    const seq = this.#stanzas.seqOf(record.stanza);
    if (seq >= 0) this.#ring[seq % SIM_REGISTRY_LIMIT] = record;
  }

  /** A message still kept, by its serialized or stanza id. */
  find(messageId: string): SimRecord | undefined {
    const stanza = stanzaOf(messageId);
    const seq = this.#stanzas.seqOf(stanza);
    if (seq < 0) return undefined;
    const record = this.#ring[seq % SIM_REGISTRY_LIMIT];
    return record?.stanza === stanza ? record : undefined;
  }
}
