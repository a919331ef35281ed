import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALENDAR_SOURCES } from "../../schemas/vocabularies.ts";
import { encodeCursor } from "../../server/http/params.ts";
import { edgeCaseDataDir, removeEconomicsDataDirs } from "../support/economics-index.ts";
import { CALENDAR, type Day, flatten, idsOf } from "../support/public-answers.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import { BULK, EDGE_EVENT_IDS, EDGE_RUNS } from "../support/synthetic-economics-corpora.ts";

afterAll(removeEconomicsDataDirs);

const ID = EDGE_EVENT_IDS;
const MARCH = "from=2026-03-01&to=2026-03-31";

const sorted = (ids: string[]) => [...ids].sort();
const tokens = (count: number, token: string) => Array.from({ length: count }, () => token).join(",");

describe("GET /api/public/v1/economics/calendar over a synthetic index", () => {
  let service: RunningService;
  const calendar = (query: string, init?: RequestInit) => service.request(`${CALENDAR}?${query}`, init);
  const at = async <T>(clock: string, work: () => Promise<T>): Promise<T> => {
    service.clock.set(clock);
    try {
      return await work();
    } finally {
      service.clock.set("2026-03-14T12:00:00Z");
    }
  };

  beforeAll(async () => {
    service = await startService({ seedDataDir: await edgeCaseDataDir(), clock: fakeClock("2026-03-14T12:00:00Z") });
  });
  afterAll(() => service.close());

  const expectInvalid = async (query: string) => {
    const response = await calendar(query);
    expect(response.status, query).toBe(400);
    expect(response.body.error.code, query).toBe("VALIDATION_FAILED");
  };

  it("needs no credential and is publicly cacheable for 300 s with a weak ETag", async () => {
    const { status, headers } = await calendar(MARCH);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("public, max-age=300");
    const etag = headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    const again = await calendar(MARCH, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  it("groups events by scheduledDate without tz, ascending, and carries no local projection", async () => {
    // A blank tz is trimmed like every other parameter, to no tz.
    for (const query of [MARCH, `${MARCH}&tz=`, `${MARCH}&tz=%20`]) {
      const { body } = await calendar(query);
      const days: Day[] = body.data.days;
      expect(
        days.map((day) => day.date),
        query,
      ).toEqual(["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12", "2026-03-18", "2026-03-19"]);
      for (const day of days)
        for (const event of day.events) {
          expect(event.scheduledDate).toBe(day.date);
          expect(event, query).not.toHaveProperty("local");
        }
      expect(idsOf(body)).toHaveLength(11);
    }
  });

  it("adds local.date, local.time (null for date-only) and local.timeZone with tz, keeping the UTC values", async () => {
    const { body } = await calendar(`${MARCH}&tz=Pacific/Kiritimati`);
    const byId = new Map(flatten(body.data.days).map((event) => [event.id, event]));
    expect(byId.get(ID.cpi0311)).toMatchObject({
      scheduledDate: "2026-03-11",
      scheduledAt: "2026-03-11T12:30:00.000Z",
      local: { date: "2026-03-12", time: "02:30", timeZone: "Pacific/Kiritimati" },
    });
    expect(byId.get(ID.hicpFlash0312)).toMatchObject({
      scheduledAt: null,
      local: { date: "2026-03-12", time: null, timeZone: "Pacific/Kiritimati" },
    });
    for (const day of body.data.days as Day[]) for (const event of day.events) expect(event.local.date).toBe(day.date);
    const losAngeles = await calendar(`${MARCH}&tz=America/Los_Angeles`);
    const ecb = flatten(losAngeles.body.data.days).find((event) => event.id === ID.ecbDecision0319);
    expect(ecb).toMatchObject({ local: { date: "2026-03-19", time: "06:15", timeZone: "America/Los_Angeles" } });
    await expectInvalid(`${MARCH}&tz=Europe/Atlantis`);
  });

  it("reads bare from/to as an inclusive window of local days in tz (Pacific/Kiritimati and America/Los_Angeles)", async () => {
    // The BLS events are at 12:30Z. Kiritimati's 2026-03-10 (UTC+14) runs 03-09T10:00Z to 03-10T10:00Z: only the 03-09 event.
    expect(idsOf((await calendar("from=2026-03-10&to=2026-03-10&tz=Pacific/Kiritimati")).body)).toEqual([
      ID.employment0309,
    ]);
    // Los Angeles' 2026-03-10 (UTC-7 after the DST change) runs 03-10T07:00Z to 03-11T07:00Z: only the 03-10 event.
    expect(idsOf((await calendar("from=2026-03-10&to=2026-03-10&tz=America/Los_Angeles")).body)).toEqual([ID.ppi0310]);
    // An instant `to` is inclusive: an event exactly at it is in the window.
    expect(idsOf((await calendar("from=2026-03-10T00:00:00Z&to=2026-03-10T12:30:00Z")).body)).toEqual([ID.ppi0310]);
    expect(idsOf((await calendar("from=2026-03-10T00:00:00Z&to=2026-03-10T12:29:59Z")).body)).toEqual([]);
    expect(idsOf((await calendar("from=2026-03-19T00:00:00Z&to=2026-03-19T23:59:59Z")).body)).toEqual([
      ID.ecbDecision0319,
    ]);
  });

  it("defaults to 7 days back and 31 days ahead of today", async () => {
    // Today 2026-03-16: 7 days back is 2026-03-09.
    expect(await at("2026-03-16T12:00:00Z", async () => idsOf((await calendar("")).body))).toContain(ID.employment0309);
    // Today 2026-03-17: the window starts 2026-03-10.
    const later = await at("2026-03-17T12:00:00Z", async () => idsOf((await calendar("")).body));
    expect(later).not.toContain(ID.employment0309);
    expect(later).toContain(ID.ppi0310);
    expect(later).toContain(ID.ecbDecision0319);
    // Today 2026-02-06: 31 days ahead is 2026-03-09; 2026-03-11 is beyond the window.
    const earlier = await at("2026-02-06T12:00:00Z", async () => idsOf((await calendar("")).body));
    expect(earlier).toContain(ID.employment0309);
    expect(earlier).not.toContain(ID.cpi0311);
  });

  it("accepts a window of up to 93 days and refuses a longer one or a bad bound with VALIDATION_FAILED", async () => {
    expect((await calendar("from=2026-03-01&to=2026-06-01")).status).toBe(200);
    await expectInvalid("from=2026-03-01&to=2026-06-02");
    await expectInvalid("from=2026-03-10T09:00:00");
    await expectInvalid("from=soon");
    await expectInvalid("from=2026-03-12&to=2026-03-10");
  });

  it("filters by source, release, country and currency with up to 10 tokens each", async () => {
    expect(idsOf((await calendar(`${MARCH}&source=central-bank-statistics-calendar`)).body)).toEqual([
      ID.ecbDecision0319,
    ]);
    expect(idsOf((await calendar(`${MARCH}&release=bls-consumer-price-index`)).body)).toEqual([ID.cpi0311]);
    expect(sorted(idsOf((await calendar(`${MARCH}&country=us`)).body))).toEqual(
      sorted([ID.employment0309, ID.ppi0310, ID.cpi0311, ID.realEarnings0311, ID.jolts0311, ID.eci0317]),
    );
    expect(idsOf((await calendar(`${MARCH}&country=EA`)).body)).toEqual([]);
    expect(sorted(idsOf((await calendar(`${MARCH}&currency=eur`)).body))).toEqual(
      sorted([ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312, ID.hicp0318, ID.ecbDecision0319]),
    );
    for (const name of ["source", "release", "country", "currency"]) {
      expect((await calendar(`${MARCH}&${name}=${tokens(10, "x")}`)).status, name).toBe(200);
      await expectInvalid(`${MARCH}&${name}=${tokens(11, "x")}`);
    }
  });

  it("refuses unknown region and status values (closed enumerations) and filters by them", async () => {
    expect(sorted(idsOf((await calendar(`${MARCH}&region=ea`)).body))).toEqual(
      sorted([ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312, ID.hicp0318, ID.ecbDecision0319]),
    );
    expect(idsOf((await calendar(`${MARCH}&status=rescheduled`)).body)).toEqual([ID.eci0317]);
    expect(idsOf((await calendar(`${MARCH}&status=PUBLISHED`)).body)).toEqual([ID.hicp0318]);
    expect(sorted(idsOf((await calendar(`${MARCH}&status=scheduled,published`)).body))).toEqual(
      sorted([
        ID.employment0309,
        ID.ppi0310,
        ID.cpi0311,
        ID.realEarnings0311,
        ID.jolts0311,
        ID.unemployment0312,
        ID.hicpFlash0312,
        ID.hicp0318,
        ID.ecbDecision0319,
      ]),
    );
    await expectInvalid(`${MARCH}&region=US`);
    await expectInvalid(`${MARCH}&status=DELAYED`);
    await expectInvalid(`${MARCH}&status=scheduled,late`);
    await expectInvalid(`${MARCH}&region=${tokens(11, "EA")}`);
  });

  it("pages with a default of 50, clamps at 200 and round-trips cursors", async () => {
    await at("2027-01-08T12:00:00Z", async () => {
      const first = await calendar("");
      expect(idsOf(first.body)).toHaveLength(50);
      expect(first.body.meta.nextCursor).toEqual(expect.any(String));
      expect(idsOf((await calendar("limit=1000")).body)).toHaveLength(200);
      const paged: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const response: { body: any } = await calendar(`limit=200${cursor ? `&cursor=${cursor}` : ""}`);
        sizes.push(idsOf(response.body).length);
        paged.push(...idsOf(response.body));
        cursor = response.body.meta.nextCursor;
      } while (cursor !== null);
      expect(sizes).toEqual([200, 200, BULK.count - 400]);
      expect(new Set(paged).size).toBe(BULK.count);
      expect(paged.slice(0, 50)).toEqual(idsOf(first.body));
    });
    for (const query of ["limit=0", "limit=x", "cursor=%%", "cursor=abc"]) await expectInvalid(`${MARCH}&${query}`);
    const past = await calendar(`${MARCH}&cursor=${encodeCursor(500)}`);
    expect(past.status).toBe(200);
    expect(past.body.data.days).toEqual([]);
    expect(past.body.meta.nextCursor).toBeNull();
  });

  it("reports sourceChecks, dataUpdatedAt, dataStatus and nextCursor", async () => {
    const { body } = await calendar(MARCH);
    expect(body.meta.sourceChecks).toEqual(
      CALENDAR_SOURCES.map((sourceId) => ({
        sourceId,
        // The BLS schedule failed in the third (partial) run.
        latestCheck: sourceId === "labour-stats-release-schedule" ? "incomplete" : "successful",
        lastSuccessAt: EDGE_RUNS.second,
      })),
    );
    expect(body.meta).toMatchObject({
      lastIngestedAt: EDGE_RUNS.third,
      lastSuccessfulIngestionAt: EDGE_RUNS.second,
      dataUpdatedAt: EDGE_RUNS.third,
      dataStatus: "fresh",
      nextCursor: null,
    });
  });

  it("turns dataStatus stale 36 hours after the last successful ingestion", async () => {
    // Last success 2026-03-13T06:00Z.
    expect(await at("2026-03-14T18:00:00.000Z", async () => (await calendar(MARCH)).body.meta.dataStatus)).toBe(
      "fresh",
    );
    expect(await at("2026-03-14T18:00:00.001Z", async () => (await calendar(MARCH)).body.meta.dataStatus)).toBe(
      "stale",
    );
  });

  it("computes derivedState from the clock", async () => {
    const states = await at(
      "2026-03-12T23:00:00Z",
      async () =>
        new Map(flatten((await calendar(MARCH)).body.data.days).map((event) => [event.id, event.derivedState])),
    );
    expect(states.get(ID.hicpFlash0312)).toBe("PAST_DUE_AWAITING_CONFIRMATION");
    expect(states.get(ID.ppi0310)).toBe("PAST_DUE_AWAITING_CONFIRMATION");
    expect(states.get(ID.cpi0311)).toBe("CONFIRMED_PUBLISHED");
    expect(states.get(ID.industrialProduction0312)).toBe("CANCELLED_AT_SOURCE");
    expect(states.get(ID.hicp0318)).toBe("CONFIRMED_PUBLISHED");
    expect(states.get(ID.eci0317)).toBe("UPCOMING");
  });
});
