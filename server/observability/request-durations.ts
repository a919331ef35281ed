import type { Histogram, MetricObjectWithValues, MetricValueWithName, Registry } from "prom-client";

/**
 * The per-request duration histogram in plain numbers, handed to prom-client's registry when scraped: its Histogram
 * validates and hashes labels on every observation (docs/performance.md). The exposition is the same as the
 * Histogram's (test/unit/request-durations.test.ts compares the two).
 */
export class RequestDurations {
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly name: string;
  readonly help: string;
  private readonly upperBounds: readonly number[];
  private readonly series = new Map<string, Map<number, SeriesCounts>>();
  /** Series in the order first observed, as prom-client exposes them. */
  private readonly inOrder: SeriesCounts[] = [];

  constructor(options: { name: string; help: string; buckets: readonly number[]; registry: Registry }) {
    this.name = options.name;
    this.help = options.help;
    this.upperBounds = [...options.buckets].sort((a, b) => a - b);
    // The registry uses only `get` and `reset`; its types name only prom-client's classes.
    options.registry.registerMetric(this as unknown as Histogram);
  }

  observe(route: string, status: number, seconds: number): void {
    let byStatus = this.series.get(route);
    if (!byStatus) {
      byStatus = new Map();
      this.series.set(route, byStatus);
    }
    let counts = byStatus.get(status);
    if (!counts) {
      counts = {
        labels: { route, status: String(status) },
        buckets: new Float64Array(this.upperBounds.length),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, counts);
      this.inOrder.push(counts);
    }
    const bounds = this.upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]!) bucket++;
    // Past the last bound only `+Inf` (the count) holds it.
    if (bucket < bounds.length) counts.buckets[bucket]!++;
    counts.sum += seconds;
    counts.count++;
  }

  /** The registry's view, shaped as prom-client's Histogram gives it: cumulative buckets, `+Inf`, `_sum`, `_count`. */
  async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const values: MetricValueWithName<string>[] = [];
    for (const counts of this.inOrder) {
      const { labels } = counts;
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += counts.buckets[i]!;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: "+Inf", ...labels }, value: counts.count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: counts.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: counts.count, metricName: `${this.name}_count` });
    }
    // The declared type is an enum prom-client's runtime does not use: `type` is printed as it is.
    const type = this.type as unknown as MetricObjectWithValues<MetricValueWithName<string>>["type"];
    return { name: this.name, help: this.help, type, values, aggregator: this.aggregator, collect: () => undefined };
  }

  reset(): void {
    this.series.clear();
    this.inOrder.length = 0;
  }
}

interface SeriesCounts {
  labels: { route: string; status: string };
  /** Observations per bucket (not cumulative), by the first bound at or above the value. */
  buckets: Float64Array;
  sum: number;
  count: number;
}
