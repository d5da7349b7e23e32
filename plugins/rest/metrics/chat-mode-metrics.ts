/**
 * Chat mode metrics for `/metrics` (docs/handoff.md), read when scraped:
 * `wakit_chats_by_mode{client,mode}` (chats whose mode was set, by mode: chats never switched are
 * `bot` and not counted) and `wakit_chat_mode_switches_total{mode}` (switches into each mode made by
 * this process since it started).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { RestHost } from '../rest-host.js';

const MODES = ['bot', 'human', 'closed'] as const;

export function registerChatModeMetrics(registry: Registry, sdk: Pick<RestHost, 'chats'>): void {
  const registers = [registry];
  new Gauge({
    name: 'wakit_chats_by_mode',
    help: 'Chats whose mode was set, by client and mode (bot, human: a person answers, closed)',
    labelNames: ['client', 'mode'],
    registers,
    async collect() {
      this.reset();
      const counts = new Map<string, number>();
      for (const { client, mode } of await sdk.chats.modes()) {
        const key = `${client}\n${mode}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      for (const [key, n] of counts) {
        const [client = '', mode = ''] = key.split('\n');
        this.set({ client, mode }, n);
      }
    },
  });
  new Counter({
    name: 'wakit_chat_mode_switches_total',
    help: 'Chat mode switches into each mode since this process started',
    labelNames: ['mode'],
    registers,
    collect() {
      this.reset();
      const switches = sdk.chats.switches();
      for (const mode of MODES) this.inc({ mode }, switches[mode]);
    },
  });
}
