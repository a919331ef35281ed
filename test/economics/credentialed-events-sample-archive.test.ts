import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeEconomicsDataDirs, SAMPLE_INGESTED_AT, sampleDataDir } from "../support/economics-index.ts";
import { credentialedClient, inEventOrder } from "../support/economics-requests.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import { type Entry, idsOf } from "./credentialed-events-fixtures.ts";

afterAll(removeEconomicsDataDirs);

describe("GET /api/v1/economics/events over the sample archive", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  const RANGE = "from=2023-01-01&to=2024-01-31";

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir(), clock: fakeClock("2026-11-21T12:00:00Z") });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("serves the ingested calendars in order with the run's freshness facts", async () => {
    const { status, body } = await get(`/api/v1/economics/events?${RANGE}&limit=500`);
    expect(status).toBe(200);
    const entries: Entry[] = body.data.entries;
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.map((entry) => entry.id)).toEqual(inEventOrder(entries).map((entry) => entry.id));
    for (const entry of entries) {
      expect(entry.scheduledDate >= "2023-01-01" && entry.scheduledDate <= "2024-02-01", entry.scheduledDate).toBe(
        true,
      );
    }
    const publishers = new Set(entries.map((entry) => entry.release.publisher));
    expect([...publishers].sort()).toEqual(["BLS", "ECB", "EUROSTAT"]);
    expect(body.meta).toMatchObject({
      lastIngestedAt: SAMPLE_INGESTED_AT,
      lastSuccessfulIngestionAt: SAMPLE_INGESTED_AT,
      dataUpdatedAt: SAMPLE_INGESTED_AT,
      nextCursor: null,
    });
  });

  it("pages the real corpus with the default limit and identical filters", async () => {
    const whole: Entry[] = (await get(`/api/v1/economics/events?${RANGE}&limit=500`)).body.data.entries;
    const first = await get(`/api/v1/economics/events?${RANGE}`);
    expect(first.body.data.entries).toHaveLength(100);
    const paged = [...idsOf(first.body)];
    for (let cursor = first.body.meta.nextCursor; cursor !== null; ) {
      const next = await get(`/api/v1/economics/events?${RANGE}&cursor=${cursor}`);
      expect(next.body.data.entries.length).toBeLessThanOrEqual(100);
      paged.push(...idsOf(next.body));
      cursor = next.body.meta.nextCursor;
    }
    expect(paged).toEqual(whole.map((entry) => entry.id));
  });

  it("finds the BLS CPI release of 2025-07-15 at 08:30 New York and judges it against the clock", async () => {
    const query = "/api/v1/economics/events?from=2025-07-15&to=2025-07-15&release=bls-consumer-price-index";
    const { body } = await get(query);
    expect(body.data.entries).toHaveLength(1);
    expect(body.data.entries[0]).toMatchObject({
      title: "Consumer Price Index",
      scheduledDate: "2025-07-15",
      scheduledAt: "2025-07-15T12:30:00.000Z",
      timePrecision: "EXACT_TIME",
      sourceTimezone: "America/New_York",
      status: "SCHEDULED",
      importance: "HIGH",
      derivedState: "PAST_DUE_AWAITING_CONFIRMATION",
      publication: { confirmed: false, evidence: [] },
    });
    service.clock.set("2025-07-15T12:29:59Z");
    expect((await get(query)).body.data.entries[0].derivedState).toBe("DUE_TODAY");
    service.clock.set("2025-07-14T12:00:00Z");
    expect((await get(query)).body.data.entries[0].derivedState).toBe("UPCOMING");
    service.clock.set("2026-11-21T12:00:00Z");
  });

  it("answers a filter that matches nothing with 200 and an empty list", async () => {
    const { status, body } = await get(`/api/v1/economics/events?${RANGE}&country=JP`);
    expect(status).toBe(200);
    expect(body.data.entries).toEqual([]);
    expect(body.meta.nextCursor).toBeNull();
  });
});
