import type { Metric, MetricObjectWithValues, MetricValueWithName, Registry } from 'prom-client';

interface Series<L extends string> {
  labels: Record<L, string>;
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram counted in a Map on the hot path, in the exposition prom-client's own
 * `Histogram` gives (buckets cumulative, then +Inf, `_sum`, `_count`): prom-client validates and
 * hashes the label object on every `observe`, several times per REST send (the request, the send
 * latency, each ack). Series are looked up by a key the caller builds, as with TalliedCounter.
 */
export class TalliedHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series<L>>();

  constructor(config: {
    name: string;
    help: string;
    buckets: readonly number[];
    registry: Registry;
  }) {
    this.name = config.name;
    this.help = config.help;
    this.#bounds = [...config.buckets].sort((a, b) => a - b);
    // The registry takes any metric with a name and `get()`; prom-client's type lists its classes.
    config.registry.registerMetric(this as unknown as Metric);
  }

  /** Observes `value` under `key` (the labels are built only the first time a key is seen). */
  observe(key: string, labels: () => Record<L, string>, value: number): void {
    let series = this.#series.get(key);
    if (!series) {
      series = {
        labels: labels(),
        counts: new Float64Array(this.#bounds.length + 1),
        sum: 0,
        count: 0,
      };
      this.#series.set(key, series);
    }
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    series.counts[i] += 1;
    series.sum += value;
    series.count += 1;
  }

  get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const values: Array<MetricValueWithName<string>> = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += counts[i];
        values.push({ metricName: bucket, labels: { le, ...labels }, value: cumulative });
      });
      values.push({ metricName: bucket, labels: { le: '+Inf', ...labels }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    const metric = {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
    };
    // prom-client types `type` as its MetricType enum; the registry prints the string it holds.
    return Promise.resolve({ ...metric, values } as unknown as MetricObjectWithValues<
      MetricValueWithName<string>
    >);
  }

  reset(): void {
    this.#series.clear();
  }
}
