/**
 * The metrics plugins register (the `metrics` privilege, docs/plugins.md#metrics) in the REST
 * server's registry: each family is added when `/metrics` is first scraped after it was registered
 * (plugins set up after the REST plugin register theirs later) and read at every scrape. A name
 * the server uses itself is skipped (reported once).
 */
import type { Registry } from 'prom-client';
import type * as http from '../../../src/entries/http.js';

type Families = Pick<http.PluginMetrics, 'families'>;

export class PluginFamilies {
  readonly #added = new Set<string>();

  constructor(
    private readonly registry: Registry,
    private readonly metrics: () => Families | undefined,
    private readonly report: (error: unknown) => void,
  ) {}

  /** Adds the families not added yet (called before each scrape). */
  sync(): void {
    for (const family of this.metrics()?.families() ?? []) {
      if (this.#added.has(family.name)) continue;
      this.#added.add(family.name);
      if (this.registry.getSingleMetric(family.name)) {
        this.report(
          new Error(`plugin metric ${family.name} clashes with a REST metric: not served`),
        );
        continue;
      }
      this.registry.registerMetric(asPromMetric(family));
    }
  }
}

/** A family in the shape prom-client's registry reads (`get()` at every scrape). */
function asPromMetric(family: http.MetricFamily): Parameters<Registry['registerMetric']>[0] {
  const metric = {
    name: family.name,
    help: family.help,
    type: family.type,
    aggregator: 'sum',
    get: () =>
      Promise.resolve({
        name: family.name,
        help: family.help,
        type: family.type,
        aggregator: 'sum',
        values: family.samples().map((s) => ({
          value: s.value,
          labels: s.labels,
          ...(s.suffix ? { metricName: `${family.name}${s.suffix}` } : {}),
        })),
      }),
    reset: () => undefined,
  };
  return metric as unknown as Parameters<Registry['registerMetric']>[0];
}
