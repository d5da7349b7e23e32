import type { Managers } from '../capabilities/registry.js';

/**
 * Presence and read state, `client.presence`: the manager built from src/capabilities/presence.ts
 * (`markSeen`, `send`, `setOnline`; queued with light pacing). See docs/presence.md.
 */
export type PresenceApi = Managers['presence'];
