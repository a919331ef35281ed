import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import { encodeCursor } from "../../server/http/params.ts";
import {
  edgeCaseDataDir,
  longTitleDataDir,
  removeEconomicsDataDirs,
  sampleDataDir,
} from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import { BULK, EDGE_EVENT_IDS, EDGE_RUNS, LONG_TITLES } from "../support/synthetic-economics-corpora.ts";

afterAll(removeEconomicsDataDirs);

type Entry = Record<string, any> & { id: string; localDate: string };
type Day = { date: string; entries: Entry[] };

const ID = EDGE_EVENT_IDS;
const MARCH = "from=2026-03-01&to=2026-03-31";

const shape = (days: Day[]) => days.map((day) => ({ date: day.date, ids: day.entries.map((entry) => entry.id) }));
const flatten = (days: Day[]) => days.flatMap((day) => day.entries);

/** Days of several pages grouped again: a day split across pages joins up. */
function regroup(pages: Day[][]): { date: string; ids: string[] }[] {
  const merged = new Map<string, string[]>();
  for (const day of pages.flat())
    merged.set(day.date, [...(merged.get(day.date) ?? []), ...day.entries.map((entry) => entry.id)]);
  return [...merged].map(([date, ids]) => ({ date, ids }));
}

describe("GET /api/v1/economics/calendar over a synthetic index", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  const calendar = (query: string) => get(`/api/v1/economics/calendar?${query}`);
  const events = (query: string) => get(`/api/v1/economics/events?${query}`);

  beforeAll(async () => {
    service = await startService({ seedDataDir: await edgeCaseDataDir(), clock: fakeClock("2026-03-14T12:00:00Z") });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  const expectError = async (query: string, code: string) => {
    const response = await calendar(query);
    expect(response.status, query).toBe(400);
    expect(response.body.error.code, query).toBe(code);
  };

  it("needs economics:read", async () => {
    expect((await service.request(`/api/v1/economics/calendar?${MARCH}`)).status).toBe(401);
    expect((await credentialedClient(service, ["weather:read"])(`/api/v1/economics/calendar?${MARCH}`)).status).toBe(
      403,
    );
    const head = await get(`/api/v1/economics/calendar?${MARCH}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("is always localised (UTC by default) and groups by local date, ascending, with no empty days", async () => {
    const { status, body } = await calendar(MARCH);
    expect(status).toBe(200);
    const days: Day[] = body.data.days;
    expect(days.map((day) => day.date)).toEqual([...new Set(days.map((day) => day.date))].sort());
    for (const day of days) {
      expect(day.entries.length).toBeGreaterThan(0);
      for (const entry of day.entries) expect(entry).toMatchObject({ localDate: day.date, localTimeZone: "UTC" });
    }
    expect(shape(days)).toEqual([
      { date: "2026-03-09", ids: [ID.employment0309] },
      { date: "2026-03-10", ids: [ID.ppi0310] },
      { date: "2026-03-11", ids: [...[ID.cpi0311, ID.realEarnings0311].sort(), ID.jolts0311] },
      { date: "2026-03-12", ids: [ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312].sort() },
      { date: "2026-03-18", ids: [ID.eci0317, ID.hicp0318] },
      { date: "2026-03-19", ids: [ID.ecbDecision0319] },
    ]);
    expect(body.meta).toMatchObject({
      lastIngestedAt: EDGE_RUNS.third,
      lastSuccessfulIngestionAt: EDGE_RUNS.second,
      dataUpdatedAt: EDGE_RUNS.third,
      nextCursor: null,
    });
    expect(body.meta).not.toHaveProperty("dataStatus");
  });

  it("ignores timezone", async () => {
    const plain = await calendar(MARCH);
    for (const value of ["America/Los_Angeles", "yes", ""]) {
      const switched = await calendar(`${MARCH}&timezone=${value}`);
      expect(switched.body.data, value).toEqual(plain.body.data);
    }
  });

  it("serves exactly the records of the events route, localised", async () => {
    for (const tz of ["UTC", "Pacific/Kiritimati", "America/Los_Angeles"]) {
      const fromCalendar = flatten((await calendar(`${MARCH}&tz=${tz}`)).body.data.days);
      const fromEvents: Entry[] = (await events(`${MARCH}&tz=${tz}`)).body.data.entries;
      expect(
        [...fromCalendar].sort((a, b) => a.id.localeCompare(b.id)),
        tz,
      ).toEqual([...fromEvents].sort((a, b) => a.id.localeCompare(b.id)));
    }
  });

  it("buckets by the local date in tz, not by scheduledDate (Pacific/Kiritimati)", async () => {
    const { body } = await calendar("from=2026-03-09&to=2026-03-12&tz=Pacific/Kiritimati");
    // Range: UTC dates 2026-03-08 .. 2026-03-12. 12:30Z is 02:30 the next day in Kiritimati; date-only events keep their date.
    expect(shape(body.data.days)).toEqual([
      { date: "2026-03-10", ids: [ID.employment0309] },
      { date: "2026-03-11", ids: [ID.ppi0310] },
      {
        date: "2026-03-12",
        ids: [
          ...[ID.cpi0311, ID.realEarnings0311].sort(),
          ID.jolts0311,
          ...[ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312].sort(),
        ],
      },
    ]);
    const cpi = flatten(body.data.days).find((entry) => entry.id === ID.cpi0311)!;
    expect(cpi).toMatchObject({
      scheduledDate: "2026-03-11",
      localDate: "2026-03-12",
      localTime: "02:30",
      localTimeZone: "Pacific/Kiritimati",
    });
  });

  it("buckets by the local date in tz (America/Los_Angeles)", async () => {
    const { body } = await calendar("from=2026-03-09&to=2026-03-11&tz=America/Los_Angeles");
    // Range: 2026-03-09T07:00Z .. 2026-03-12T07:00Z, UTC dates 03-09 .. 03-12.
    expect(body.data.days.map((day: Day) => day.date)).toEqual([
      "2026-03-09",
      "2026-03-10",
      "2026-03-11",
      "2026-03-12",
    ]);
    const day11 = body.data.days.find((day: Day) => day.date === "2026-03-11");
    expect(day11.entries.map((entry: Entry) => entry.localTime)).toEqual(["05:30", "05:30", "07:00"]);
    const day12 = body.data.days.find((day: Day) => day.date === "2026-03-12");
    expect(day12.entries.every((entry: Entry) => entry.localTime === null)).toBe(true);
  });

  it("applies limit before grouping, so a day can be split across pages", async () => {
    const query = "from=2026-03-10&to=2026-03-10";
    const first = await calendar(`${query}&limit=2`);
    expect(shape(first.body.data.days)).toEqual([
      { date: "2026-03-10", ids: [ID.ppi0310] },
      { date: "2026-03-11", ids: [[ID.cpi0311, ID.realEarnings0311].sort()[0]] },
    ]);
    expect(first.body.meta.nextCursor).toEqual(expect.any(String));
    const second = await calendar(`${query}&limit=2&cursor=${first.body.meta.nextCursor}`);
    expect(shape(second.body.data.days)).toEqual([
      { date: "2026-03-11", ids: [[ID.cpi0311, ID.realEarnings0311].sort()[1], ID.jolts0311] },
    ]);
    expect(second.body.meta.nextCursor).toBeNull();
    const whole = await calendar(query);
    expect(regroup([first.body.data.days, second.body.data.days])).toEqual(shape(whole.body.data.days));
  });

  it("round-trips cursors with identical filters over many pages", async () => {
    const query = "from=2027-01-01&to=2027-01-31";
    const pages: Day[][] = [];
    let cursor: string | null = null;
    do {
      const response: { status: number; body: any } = await calendar(
        `${query}&limit=120${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(response.status).toBe(200);
      pages.push(response.body.data.days);
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(pages.map((page) => flatten(page).length)).toEqual([120, 120, 120, 120, 40]);
    const grouped = regroup(pages);
    expect(grouped.map((day) => day.ids.length)).toEqual(Array.from({ length: 10 }, () => BULK.perDay));
    expect(new Set(grouped.flatMap((day) => day.ids)).size).toBe(BULK.count);
    // 52 events a day and 120 a page: days are split across pages.
    expect(pages[0]!.at(-1)!.date).toBe(pages[1]![0]!.date);
  });

  it("takes the events parameters and limits", async () => {
    expect(flatten((await calendar("from=2027-01-01&to=2027-01-31")).body.data.days)).toHaveLength(100);
    expect(flatten((await calendar("from=2027-01-01&to=2027-01-31&limit=900")).body.data.days)).toHaveLength(500);
    expect(
      flatten((await calendar(`${MARCH}&region=EA&importance=high`)).body.data.days)
        .map((entry) => entry.id)
        .sort(),
    ).toEqual([ID.hicpFlash0312, ID.unemployment0312, ID.ecbDecision0319].sort());
    expect(
      flatten((await calendar(`${MARCH}&source=central-bank-statistics-calendar`)).body.data.days).map(
        (entry) => entry.id,
      ),
    ).toEqual([ID.ecbDecision0319]);
    await expectError(`${MARCH}&tz=Atlantis/Capital`, "VALIDATION_FAILED");
    await expectError(`${MARCH}&region=moon`, "VALIDATION_FAILED");
    await expectError(`${MARCH}&importance=urgent`, "VALIDATION_FAILED");
    await expectError(`${MARCH}&limit=0`, "VALIDATION_FAILED");
    await expectError(`${MARCH}&cursor=@@`, "VALIDATION_FAILED");
    await expectError(`${MARCH}&country=${Array.from({ length: 26 }, () => "US").join(",")}`, "VALIDATION_FAILED");
    await expectError("from=2026-03-10T09:00:00", "ECONOMICS_RANGE_INVALID");
    await expectError("from=2026-03-12&to=2026-03-10", "ECONOMICS_RANGE_INVALID");
    await expectError("from=2026-01-01&to=2027-02-05", "ECONOMICS_RANGE_INVALID");
  });

  it("answers no match with 200 and empty days, and a cursor past the end with an empty page", async () => {
    const none = await calendar(`${MARCH}&country=EA`);
    expect(none.status).toBe(200);
    expect(none.body.data.days).toEqual([]);
    const past = await calendar(`${MARCH}&cursor=${encodeCursor(11)}`);
    expect(past.status).toBe(200);
    expect(past.body.data.days).toEqual([]);
    expect(past.body.meta.nextCursor).toBeNull();
  });

  it("computes derivedState per request", async () => {
    service.clock.set("2026-03-10T12:29:00Z");
    const before = flatten((await calendar(MARCH)).body.data.days).find((entry) => entry.id === ID.ppi0310)!;
    service.clock.set("2026-03-10T12:31:00Z");
    const after = flatten((await calendar(MARCH)).body.data.days).find((entry) => entry.id === ID.ppi0310)!;
    service.clock.set("2026-03-14T12:00:00Z");
    expect([before.derivedState, after.derivedState]).toEqual(["DUE_TODAY", "PAST_DUE_AWAITING_CONFIRMATION"]);
  });
});

describe("GET /api/v1/economics/calendar over the sample archive", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("groups a year of real releases into ascending local days", async () => {
    const { status, body } = await get(
      "/api/v1/economics/calendar?from=2023-01-01&to=2023-12-31&tz=Europe/Berlin&limit=500",
    );
    expect(status).toBe(200);
    const days: Day[] = body.data.days;
    expect(days.length).toBeGreaterThan(50);
    expect(days.map((day) => day.date)).toEqual([...new Set(days.map((day) => day.date))].sort());
    for (const day of days)
      for (const entry of day.entries)
        expect(entry).toMatchObject({ localDate: day.date, localTimeZone: "Europe/Berlin" });
    // The BLS CPI of 2023-01-12 at 08:30 New York is 14:30 in Berlin.
    const cpi = flatten(days).find(
      (entry) => entry.release.slug === "bls-consumer-price-index" && entry.scheduledDate === "2023-01-12",
    );
    expect(cpi).toMatchObject({ scheduledAt: "2023-01-12T13:30:00.000Z", localDate: "2023-01-12", localTime: "14:30" });
  });
});

describe("GET /api/v1/economics/calendar at the response ceiling", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await longTitleDataDir() });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("cuts an oversized page before grouping and lets the cursor pick up the rest", async () => {
    const query = `from=${LONG_TITLES.from}&to=${LONG_TITLES.to}&limit=500`;
    const first = await get(`/api/v1/economics/calendar?${query}`);
    expect(first.status).toBe(200);
    expect(first.body.meta.truncated).toBe(true);
    expect(Buffer.byteLength(first.text)).toBeLessThanOrEqual(RESPONSE_CEILING_BYTES);
    const pages: Day[][] = [first.body.data.days];
    let cursor: string | null = first.body.meta.nextCursor;
    while (cursor !== null) {
      const response: { body: any } = await get(`/api/v1/economics/calendar?${query}&cursor=${cursor}`);
      pages.push(response.body.data.days);
      cursor = response.body.meta.nextCursor;
    }
    const ids = pages.flatMap((page) => flatten(page).map((entry) => entry.id));
    expect(ids).toHaveLength(LONG_TITLES.count);
    expect(new Set(ids).size).toBe(LONG_TITLES.count);
    expect(regroup(pages).map((day) => day.ids.length)).toEqual(Array.from({ length: 8 }, () => LONG_TITLES.count / 8));
  });
});
