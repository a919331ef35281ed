import fc from "fast-check";
import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestDurations } from "../../server/observability/request-durations.ts";

const NAME = "service_http_request_duration_seconds";
const HELP = "Answers by route and status.";
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface Observation {
  route: string;
  status: number;
  seconds: number;
}

/** The same observations through prom-client's own Histogram and through ours: the registries' texts. */
async function bothExpositions(observations: Observation[]): Promise<{ ours: string; promClients: string }> {
  const ourRegistry = new Registry();
  const ours = new RequestDurations({ name: NAME, help: HELP, buckets: BUCKETS, registry: ourRegistry });
  const theirRegistry = new Registry();
  const theirs = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ["route", "status"],
    buckets: BUCKETS,
    registers: [theirRegistry],
  });
  for (const { route, status, seconds } of observations) {
    ours.observe(route, status, seconds);
    theirs.observe({ route, status: String(status) }, seconds);
  }
  return { ours: await ourRegistry.metrics(), promClients: await theirRegistry.metrics() };
}

const observation = fc.record({
  route: fc.constantFrom("weather-current", "economics-calendar", "unmatched", 'a "quoted"\\route'),
  status: fc.constantFrom(200, 304, 404, 429, 503),
  // Bounds themselves, values between them and values past the last bound.
  seconds: fc.oneof(fc.constantFrom(...BUCKETS, 0, 45), fc.double({ min: 0, max: 60, noNaN: true })),
});

describe("request durations", () => {
  it("expose exactly what prom-client's Histogram exposes for the same observations", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
        const { ours, promClients } = await bothExpositions(observations);
        expect(ours).toBe(promClients);
      }),
      { numRuns: 200 },
    );
  });

  it("count a value on a bound in that bound's bucket, and one past the last bound only in +Inf", async () => {
    const { ours } = await bothExpositions([
      { route: "r", status: 200, seconds: 0.001 },
      { route: "r", status: 200, seconds: 31 },
    ]);
    expect(ours).toContain(`${NAME}_bucket{le="0.0005",route="r",status="200"} 0`);
    expect(ours).toContain(`${NAME}_bucket{le="0.001",route="r",status="200"} 1`);
    expect(ours).toContain(`${NAME}_bucket{le="30",route="r",status="200"} 1`);
    expect(ours).toContain(`${NAME}_bucket{le="+Inf",route="r",status="200"} 2`);
    expect(ours).toContain(`${NAME}_count{route="r",status="200"} 2`);
  });

  it("start again from nothing when the registry resets its metrics", async () => {
    const registry = new Registry();
    const durations = new RequestDurations({ name: NAME, help: HELP, buckets: BUCKETS, registry });
    durations.observe("r", 200, 0.002);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain("route=");
  });
});
