import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * `asOf` and `vintages=all` on /api/v1/economics/series/{slug}/observations at edge instants
 * (server/economics/date-range.ts parseAsOf, vintages-reader.ts). Every answer goes through `service.request`, which
 * checks the body against the route's JSON Schema.
 */

const SERIES = "us-cpi-all-items-12-month-change";
const path = (query: string) => `/api/v1/economics/series/${SERIES}/observations?${query}`;

describe("asOf at edge instants", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  let current: { referencePeriod: string; value: string }[];

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
    get = credentialedClient(service);
    const answer = await get(path("limit=1000"));
    expect(answer.status).toBe(200);
    current = answer.body.data.observations;
    expect(current.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await service?.close();
    removeEconomicsDataDirs();
  });

  const periodsOf = (body: { data: { observations: { referencePeriod: string; value: string }[] } }) =>
    body.data.observations.map((observation) => [observation.referencePeriod, observation.value]);

  // 9999-12-31T23:59:59-01:00 is 10000-01-01T00:59:59Z: luxon writes that year as "+010000", which is neither an RFC
  // 3339 date-time (the schema's asOf) nor comparable as text with the index's "2026-…" instants ("+" sorts first).
  it.each([
    "9999-12-31T23:59:59-01:00",
    "9999-12-31T23:00:00-14:00",
  ])("answers the far-future instant %s like any instant after every vintage", async (asOf) => {
    const far = await get(path(`limit=1000&asOf=${encodeURIComponent(asOf)}`));
    expect([200, 400]).toContain(far.status);
    if (far.status === 400) return expect(far.body.error.code).toBe("VALIDATION_FAILED");
    expect(far.body.data.asOf).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(periodsOf(far.body)).toEqual(current.map((observation) => [observation.referencePeriod, observation.value]));
  });

  it.each([
    "0000-01-01T00:00:00+00:01",
    "0000-01-01T00:00:00+14:00",
  ])("answers the far-past instant %s with a contract-valid empty list or VALIDATION_FAILED", async (asOf) => {
    const early = await get(path(`asOf=${encodeURIComponent(asOf)}`));
    expect([200, 400]).toContain(early.status);
    if (early.status === 400) return expect(early.body.error.code).toBe("VALIDATION_FAILED");
    expect(early.body.data.asOf).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(early.body.data.observations).toEqual([]);
  });

  // RFC 3339 section 5.6: time-numoffset is ("+" / "-") time-hour ":" time-minute, hour 00-23 and minute 00-59.
  it.each([
    "2026-01-01T00:00:00+99:99",
    "2026-01-01T00:00:00+24:00",
    "2026-01-01T00:00:00-00:60",
  ])("refuses the impossible offset in %s", async (asOf) => {
    const answer = await get(path(`asOf=${encodeURIComponent(asOf)}`));
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("VALIDATION_FAILED");
  });

  // RFC 3339 section 5.6 allows second 60 (a leap second); 2016-12-31T23:59:60Z was one.
  it("accepts the leap second 2016-12-31T23:59:60Z as an instant at the end of 2016", async () => {
    const leap = await get(path(`asOf=${encodeURIComponent("2016-12-31T23:59:60Z")}`));
    expect(leap.status).toBe(200);
    const endOf2016 = await get(path(`asOf=${encodeURIComponent("2016-12-31T23:59:59.999Z")}`));
    expect(periodsOf(leap.body)).toEqual(periodsOf(endOf2016.body));
  });

  it("takes offsets of +14:00 and -12:00, and fractional seconds beyond milliseconds, as the instants they name", async () => {
    const pairs = [
      ["2026-11-21T20:00:00+14:00", "2026-11-21T06:00:00Z"],
      ["2026-11-20T18:00:00-12:00", "2026-11-21T06:00:00Z"],
      ["2026-11-21T06:00:00.000999999Z", "2026-11-21T06:00:00.000Z"],
    ];
    for (const [offset, utc] of pairs) {
      const a = await get(path(`limit=1000&asOf=${encodeURIComponent(offset!)}`));
      const b = await get(path(`limit=1000&asOf=${encodeURIComponent(utc!)}`));
      expect(a.status, offset).toBe(200);
      expect(a.body.data.asOf, offset).toBe(b.body.data.asOf);
      expect(periodsOf(a.body), offset).toEqual(periodsOf(b.body));
    }
  });

  it("pages vintages=all with asOf to the same periods as one page, cursor after cursor", async () => {
    const whole = await get(path("vintages=all&asOf=2026-12-31&limit=1000"));
    expect(whole.status).toBe(200);
    const paged: unknown[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const answer = await get(path(`vintages=all&asOf=2026-12-31&limit=7${cursor ? `&cursor=${cursor}` : ""}`));
      expect(answer.status).toBe(200);
      paged.push(...answer.body.data.periods);
      cursor = answer.body.meta.nextCursor;
      if (!cursor) break;
    }
    expect(paged).toEqual(whole.body.data.periods);
  });

  it("refuses asOf values that are not instants with VALIDATION_FAILED, never a 500", async () => {
    for (const asOf of [
      "2026-01-01T00:00:00",
      "2026-01-01T00:00Z+01:00",
      "+002026-01-01T00:00:00Z",
      "2026-W01-1",
      "1e999",
      "2026-01-01T00:00:00.Z",
      "2026-02-29",
      "\u0660\u0662-01-01",
      "2026-01-01T00:00:00ZZ",
    ]) {
      const answer = await get(path(`asOf=${encodeURIComponent(asOf)}`));
      expect(answer.status, asOf).toBe(400);
      expect(answer.body.error.code, asOf).toBe("VALIDATION_FAILED");
    }
  });
});
