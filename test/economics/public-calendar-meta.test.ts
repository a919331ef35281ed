import { afterAll, describe, expect, it } from "vitest";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import { CALENDAR_SOURCES } from "../../schemas/vocabularies.ts";
import {
  longTitleDataDir,
  removeEconomicsDataDirs,
  SAMPLE_INGESTED_AT,
  sampleDataDir,
  syntheticDataDir,
} from "../support/economics-index.ts";
import { CALENDAR, flatten, idsOf } from "../support/public-answers.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import { EDGE_EVENT_IDS, EDGE_EVENTS, LONG_TITLES } from "../support/synthetic-economics-corpora.ts";

afterAll(removeEconomicsDataDirs);

const ID = EDGE_EVENT_IDS;

describe("GET /api/public/v1/economics/calendar meta on other indexes", () => {
  const services: RunningService[] = [];
  afterAll(async () => {
    for (const service of services) await service.close();
  });

  it("reports not_recorded for calendar sources never checked, and an empty 200 when nothing matches", async () => {
    const service = await startService({
      seedDataDir: await syntheticDataDir({ runs: [{ at: "2026-03-05T06:00:00.000Z" }] }),
      clock: fakeClock("2026-03-05T12:00:00Z"),
    });
    services.push(service);
    const { status, body } = await service.request(CALENDAR);
    expect(status).toBe(200);
    expect(body.data.days).toEqual([]);
    expect(body.meta.sourceChecks).toEqual(
      CALENDAR_SOURCES.map((sourceId) => ({ sourceId, lastSuccessAt: null, latestCheck: "not_recorded" })),
    );
    expect(body.meta.dataStatus).toBe("fresh");
  });

  it("reports dataStatus unavailable when no run ever fully succeeded", async () => {
    const dir = await syntheticDataDir({
      runs: [
        {
          at: "2026-03-05T06:00:00.000Z",
          calendars: { "labour-stats-release-schedule": [EDGE_EVENTS.ppi0310] },
          incomplete: ["eu-stats-release-calendar"],
        },
      ],
    });
    const service = await startService({ seedDataDir: dir, clock: fakeClock("2026-03-05T12:00:00Z") });
    services.push(service);
    const { status, body } = await service.request(CALENDAR);
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([ID.ppi0310]);
    expect(body.meta).toMatchObject({
      lastIngestedAt: "2026-03-05T06:00:00.000Z",
      lastSuccessfulIngestionAt: null,
      dataStatus: "unavailable",
    });
    expect(body.meta.sourceChecks).toContainEqual({
      sourceId: "eu-stats-release-calendar",
      lastSuccessAt: null,
      latestCheck: "incomplete",
    });
    expect(body.meta.sourceChecks).toContainEqual({
      sourceId: "labour-stats-release-schedule",
      lastSuccessAt: "2026-03-05T06:00:00.000Z",
      latestCheck: "successful",
    });
  });

  it("cuts a page over 1 MB, marks it truncated and resumes after the last event served", async () => {
    const service = await startService({ seedDataDir: await longTitleDataDir() });
    services.push(service);
    const query = `${CALENDAR}?from=${LONG_TITLES.from}&to=${LONG_TITLES.to}&limit=200`;
    const ids: string[] = [];
    let truncated = 0;
    let cursor: string | null = null;
    do {
      const response: { status: number; text: string; body: any } = await service.request(
        `${query}${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(response.status).toBe(200);
      expect(Buffer.byteLength(response.text)).toBeLessThanOrEqual(RESPONSE_CEILING_BYTES);
      if (response.body.meta.truncated === true) truncated++;
      ids.push(...idsOf(response.body));
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(truncated).toBeGreaterThan(0);
    expect(ids).toHaveLength(LONG_TITLES.count);
    expect(new Set(ids).size).toBe(LONG_TITLES.count);
  });

  it("serves the sample archive's default window around the clock", async () => {
    const service = await startService({
      seedDataDir: await sampleDataDir(),
      clock: fakeClock("2026-11-21T12:00:00Z"),
    });
    services.push(service);
    const { status, body } = await service.request(`${CALENDAR}?tz=America/New_York`);
    expect(status).toBe(200);
    const events = flatten(body.data.days);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events)
      expect(event.scheduledDate >= "2026-11-14" && event.scheduledDate <= "2026-12-23", event.scheduledDate).toBe(
        true,
      );
    const cpi = events.find((event) => event.release.slug === "bls-consumer-price-index");
    expect(cpi).toMatchObject({
      scheduledDate: "2026-12-10",
      local: { date: "2026-12-10", time: "08:30", timeZone: "America/New_York" },
    });
    expect(body.meta).toMatchObject({ dataUpdatedAt: SAMPLE_INGESTED_AT, dataStatus: "fresh" });
    expect(body.meta.sourceChecks.every((check: { latestCheck: string }) => check.latestCheck === "successful")).toBe(
      true,
    );
  });
});
