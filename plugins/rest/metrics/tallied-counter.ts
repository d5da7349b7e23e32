import { Counter, type Registry } from 'prom-client';

/**
 * A Prometheus counter counted in a Map on the hot path and handed to prom-client only when
 * scraped: prom-client hashes and validates the label object on every `inc`, several times per
 * REST send (requests, events, sends). Labels are looked up by a key the caller builds.
 */
export class TalliedCounter<L extends string> {
  readonly #counts = new Map<string, { labels: Record<L, string>; n: number }>();

  constructor(config: {
    name: string;
    help: string;
    labelNames: readonly L[];
    registry: Registry;
  }) {
    const counts = this.#counts;
    new Counter<L>({
      name: config.name,
      help: config.help,
      labelNames: config.labelNames,
      registers: [config.registry],
      collect() {
        this.reset();
        for (const { labels, n } of counts.values()) this.inc(labels, n);
      },
    });
  }

  /** Counts one under `key` (the labels are built only the first time a key is seen). */
  inc(key: string, labels: () => Record<L, string>): void {
    const entry = this.#counts.get(key);
    if (entry) entry.n += 1;
    else this.#counts.set(key, { labels: labels(), n: 1 });
  }
}
