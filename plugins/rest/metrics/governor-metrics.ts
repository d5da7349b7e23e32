/**
 * Send governor gauges for `/metrics` (docs/safety.md), read when scraped from each client's
 * governor (clients with the governor `off` are left out):
 * `wakit_governor_budget{client,budget,kind}` (`used` and `limit` of perHour, perDay,
 * newContactsPerDay), `wakit_governor_deferred{client}` and `wakit_governor_restricted{client}`
 * (1 while WhatsApp's restriction signal pauses bulk sends).
 */
import { Gauge, type Registry } from 'prom-client';
import type * as http from '../../../src/entries/http.js';

const BUDGETS = ['perHour', 'perDay', 'newContactsPerDay'] as const;

export function registerGovernorGauges(
  registry: Registry,
  sdk: { clients: Pick<http.PluginClients, 'list'> },
): void {
  const registers = [registry];
  const governors = () =>
    sdk.clients.list().flatMap((client) => {
      const governor = client.info().governor;
      return governor ? [{ client: client.name, governor }] : [];
    });
  new Gauge({
    name: 'wakit_governor_budget',
    help: 'Send budgets per account: messages counted in each rolling window (used) and its limit',
    labelNames: ['client', 'budget', 'kind'],
    registers,
    collect() {
      this.reset();
      for (const { client, governor } of governors()) {
        for (const budget of BUDGETS) {
          this.set({ client, budget, kind: 'used' }, governor.used[budget]);
          if (governor.limits) this.set({ client, budget, kind: 'limit' }, governor.limits[budget]);
        }
      }
    },
  });
  new Gauge({
    name: 'wakit_governor_deferred',
    help: 'Sends the send governor keeps deferred until a budget has room',
    labelNames: ['client'],
    registers,
    collect() {
      this.reset();
      for (const { client, governor } of governors()) this.set({ client }, governor.deferred);
    },
  });
  new Gauge({
    name: 'wakit_governor_restricted',
    help: '1 while WhatsApp signalled a restriction and bulk sends pause for the cool-down',
    labelNames: ['client'],
    registers,
    collect() {
      this.reset();
      for (const { client, governor } of governors()) {
        this.set({ client }, governor.restricted ? 1 : 0);
      }
    },
  });
}
