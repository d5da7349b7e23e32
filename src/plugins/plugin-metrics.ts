/**
 * Metrics of plugins (the `metrics` privilege, docs/plugins.md#metrics): a plugin registers
 * counters and histograms by name and counts into them; an exporter (the REST plugin's `/metrics`)
 * reads every registered family when it is scraped. Values live in this process; nothing here
 * knows Prometheus' text format or prom-client.
 */
import { WakitError } from '../errors/index.js';

/** A counter of a plugin: only goes up. */
export interface PluginCounter<L extends string = string> {
  /** Adds `n` (default 1, never negative) to the series of these labels. */
  inc(labels?: Partial<Record<L, string>>, n?: number): void;
}

/** A histogram of a plugin: observations counted into buckets, with their sum and count. */
export interface PluginHistogram<L extends string = string> {
  observe(labels: Partial<Record<L, string>>, value: number): void;
}

export interface MetricDefinition<L extends string> {
  /** Prometheus name: letters, digits, `_` and `:`; e.g. `wakit_ai_tokens_total`. */
  name: string;
  help: string;
  labelNames?: readonly L[];
}

/** One value of a family as an exporter writes it (`suffix` for a histogram's three parts). */
export interface MetricSample {
  suffix: '' | '_bucket' | '_sum' | '_count';
  labels: Readonly<Record<string, string>>;
  value: number;
}

/** A registered counter or histogram, read by an exporter. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  samples(): MetricSample[];
}

/** What a plugin granted `metrics` gets. */
export interface PluginMetrics {
  /** A counter (the same one again for the same name, type and labels; else VALIDATION_FAILED). */
  counter<L extends string = never>(definition: MetricDefinition<L>): PluginCounter<L>;
  /** A histogram; `buckets` are upper bounds, ascending (default: 5 ms to 10 s, in seconds). */
  histogram<L extends string = never>(
    definition: MetricDefinition<L> & { buckets?: readonly number[] },
  ): PluginHistogram<L>;
  /** Every registered family, in registration order (for exporters). */
  families(): readonly MetricFamily[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  labels: Record<string, string>;
  counts: number[];
  sum: number;
  n: number;
}

class Family implements MetricFamily {
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    readonly labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {}

  #of(labels: Partial<Record<string, string>> = {}): Series {
    const values = this.labelNames.map((l) => labels[l] ?? '');
    const key = values.join('\0');
    let series = this.#series.get(key);
    if (!series) {
      const own = Object.fromEntries(this.labelNames.map((l, i) => [l, values[i] ?? '']));
      series = { labels: own, counts: this.buckets.map(() => 0), sum: 0, n: 0 };
      this.#series.set(key, series);
    }
    return series;
  }

  add(labels: Partial<Record<string, string>> | undefined, n: number): void {
    if (!Number.isFinite(n) || n < 0) return;
    this.#of(labels).sum += n;
  }

  observe(labels: Partial<Record<string, string>>, value: number): void {
    if (!Number.isFinite(value)) return;
    const series = this.#of(labels);
    series.sum += value;
    series.n += 1;
    this.buckets.forEach((le, i) => {
      if (value <= le) series.counts[i] = (series.counts[i] ?? 0) + 1;
    });
  }

  samples(): MetricSample[] {
    const out: MetricSample[] = [];
    for (const s of this.#series.values()) {
      if (this.type === 'counter') {
        out.push({ suffix: '', labels: s.labels, value: s.sum });
        continue;
      }
      this.buckets.forEach((le, i) =>
        out.push({
          suffix: '_bucket',
          labels: { ...s.labels, le: String(le) },
          value: s.counts[i] ?? 0,
        }),
      );
      out.push({ suffix: '_bucket', labels: { ...s.labels, le: '+Inf' }, value: s.n });
      out.push({ suffix: '_sum', labels: s.labels, value: s.sum });
      out.push({ suffix: '_count', labels: s.labels, value: s.n });
    }
    return out;
  }
}

/** The registry the plugin host keeps: one per SDK, shared by the plugins granted `metrics`. */
export class PluginMetricsRegistry implements PluginMetrics {
  readonly #families = new Map<string, Family>();

  counter<L extends string = never>(definition: MetricDefinition<L>): PluginCounter<L> {
    const family = this.#register(definition, 'counter', []);
    return { inc: (labels, n = 1) => family.add(labels, n) };
  }

  histogram<L extends string = never>(
    definition: MetricDefinition<L> & { buckets?: readonly number[] },
  ): PluginHistogram<L> {
    const buckets = definition.buckets ?? DEFAULT_BUCKETS;
    if (buckets.length === 0 || buckets.some((b, i) => !(b > (buckets[i - 1] ?? -Infinity)))) {
      throw invalid(definition.name, 'buckets must be ascending numbers');
    }
    const family = this.#register(definition, 'histogram', buckets);
    return { observe: (labels, value) => family.observe(labels, value) };
  }

  families(): readonly MetricFamily[] {
    return [...this.#families.values()];
  }

  #register(
    definition: MetricDefinition<string>,
    type: 'counter' | 'histogram',
    buckets: readonly number[],
  ): Family {
    const { name, help } = definition;
    const labelNames = [...(definition.labelNames ?? [])];
    if (!NAME.test(name)) throw invalid(name, 'use letters, digits, _ and :');
    const badLabel = labelNames.find(
      (l) => !LABEL.test(l) || l.startsWith('__') || (type === 'histogram' && l === 'le'),
    );
    if (badLabel !== undefined) throw invalid(name, `bad label name ${JSON.stringify(badLabel)}`);
    const existing = this.#families.get(name);
    if (existing) {
      const same =
        existing.type === type &&
        existing.labelNames.join() === labelNames.join() &&
        existing.buckets.join() === buckets.join();
      if (!same) throw invalid(name, 'registered already with another type, labels or buckets');
      return existing;
    }
    const family = new Family(name, help, type, labelNames, buckets);
    this.#families.set(name, family);
    return family;
  }
}

function invalid(name: string, why: string): WakitError {
  return new WakitError('VALIDATION_FAILED', `Metric ${JSON.stringify(name)}: ${why}`, {
    details: { metric: name },
  });
}
