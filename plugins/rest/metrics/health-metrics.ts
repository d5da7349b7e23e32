/**
 * Engine health gauges for `/metrics`, read when scraped from each client's last health check
 * (clients without one are left out): `wakit_engine_capability{client,capability}` (1 works,
 * 0 broken on the running build), `wakit_engine_degraded{client,build,library}` (1 when any
 * capability is broken) and `wakit_engine_pin_mismatch{client,pinned,running}` (pinned clients:
 * 1 when another build runs than the pin).
 */
import { Gauge, type Registry } from 'prom-client';
import type { RestHost } from '../rest-host.js';
import * as contract from '../../../src/entries/contract.js';

export function registerHealthGauges(registry: Registry, sdk: RestHost): void {
  const registers = [registry];
  new Gauge({
    name: 'wakit_engine_capability',
    help: 'Engine capability on the running WhatsApp Web build: 1 works, 0 broken',
    labelNames: ['client', 'capability'],
    registers,
    collect() {
      this.reset();
      for (const client of sdk.clients.list()) {
        const health = client.info().health;
        if (!health) continue;
        for (const capability of contract.CAPABILITIES) {
          this.set({ client: client.name, capability }, health.capabilities[capability].ok ? 1 : 0);
        }
      }
    },
  });
  new Gauge({
    name: 'wakit_engine_degraded',
    help: '1 when the engine has broken capabilities on its WhatsApp Web build, else 0',
    labelNames: ['client', 'build', 'library'],
    registers,
    collect() {
      this.reset();
      for (const client of sdk.clients.list()) {
        const health = client.info().health;
        if (!health) continue;
        const labels = {
          client: client.name,
          build: health.build ?? '',
          library: health.library ?? '',
        };
        this.set(labels, health.status === 'degraded' ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'wakit_engine_pin_mismatch',
    help: '1 when the running WhatsApp Web build is not the pinned one, 0 when the pin holds',
    labelNames: ['client', 'pinned', 'running'],
    registers,
    collect() {
      this.reset();
      for (const client of sdk.clients.list()) {
        const pin = client.info().health?.pin;
        if (!pin?.pinned) continue; // unpinned: nothing to hold
        const labels = { client: client.name, pinned: pin.pinned, running: pin.running ?? '' };
        this.set(labels, pin.status === 'mismatch' ? 1 : 0);
      }
    },
  });
}
