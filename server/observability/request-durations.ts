import type { Histogram, MetricObjectWithValues, MetricValueWithName, Registry } from "prom-client";

/**
 * The per-request duration histogram, kept in plain numbers and handed to prom-client's registry at scrape time.
 *
 * prom-client's own Histogram validates and hashes the label set and keys its buckets by number-as-text on every
 * observation, a measurable part of a kept answer's cost (docs/performance.md). Here an observation is two map lookups,
 * a scan of the bounds and three additions; the exposition is the same as the Histogram's
 * (test/unit/request-durations.test.ts compares the two), and the registry formats it like any other metric.
 */
export class RequestDurations {
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly name: string;
  readonly help: string;
  private readonly upperBounds: readonly number[];
  private readonly series = new Map<string, Map<number, SeriesCounts>>();
  /** Every series in the order it was first observed, the order prom-client exposes them in. */
  private readonly inOrder: SeriesCounts[] = [];

  constructor(options: { name: string; help: string; buckets: readonly number[]; registry: Registry }) {
    this.name = options.name;
    this.help = options.help;
    this.upperBounds = [...options.buckets].sort((a, b) => a - b);
    // The registry reads a metric through `get` (and `reset`) alone; its types name only prom-client's own classes.
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
    // prom-client's declared type is an enum its runtime does not use: the registry prints `type` as it is.
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
  /** Observations per bucket (not cumulative): the first bound at or above the value. */
  buckets: Float64Array;
  sum: number;
  count: number;
}
