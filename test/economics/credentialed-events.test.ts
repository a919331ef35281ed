import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import { encodeCursor } from "../../server/http/params.ts";
import {
  BULK, EDGE_EVENTS, EDGE_RUNS, ECI_MOVED, LONG_TITLES, SAMPLE_INGESTED_AT, credentialedClient, edgeCaseDataDir, eventIdOf, inEventOrder, longTitleDataDir,
  sampleDataDir, removeEconomicsDataDirs,
} from "../support/economics-index.ts";
import { fakeClock, startService, type RunningService } from "../support/service.ts";

afterAll(removeEconomicsDataDirs);

type Entry = Record<string, any> & { id: string; scheduledDate: string; scheduledAt: string | null };

const ID = Object.fromEntries(Object.entries(EDGE_EVENTS).map(([name, spec]) => [name, eventIdOf(spec)])) as Record<keyof typeof EDGE_EVENTS, string>;
const MARCH = "from=2026-03-01&to=2026-03-31";
const ALL_MARCH = [ID.employment0309, ID.ppi0310, ID.cpi0311, ID.realEarnings0311, ID.jolts0311, ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312, ID.eci0317, ID.hicp0318, ID.ecbDecision0319];
const BLS_MARCH = [ID.employment0309, ID.ppi0310, ID.cpi0311, ID.realEarnings0311, ID.jolts0311, ID.eci0317];
const EA_MARCH = [ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312, ID.hicp0318, ID.ecbDecision0319];
const LOCAL_FIELDS = ["localDate", "localTime", "localTimeZone"];

const idsOf = (body: any): string[] => body.data.entries.map((entry: Entry) => entry.id);
const sorted = (ids: string[]) => [...ids].sort();
const list = (count: number, make: (index: number) => string) => Array.from({ length: count }, (_, index) => make(index)).join(",");

describe("GET /api/v1/economics/events over a synthetic index", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  const events = (query: string) => get(`/api/v1/economics/events?${query}`);

  beforeAll(async () => {
    service = await startService({ seedDataDir: edgeCaseDataDir(), clock: fakeClock("2026-03-14T12:00:00Z") });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  const expectError = async (query: string, status: number, code: string) => {
    const response = await events(query);
    expect(response.status, query).toBe(status);
    expect(response.body.error.code, query).toBe(code);
  };

  describe("access", () => {
    it("needs a credential with economics:read", async () => {
      const anonymous = await service.request(`/api/v1/economics/events?${MARCH}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe("UNAUTHORIZED");
      const weatherOnly = await credentialedClient(service, ["weather:read"])(`/api/v1/economics/events?${MARCH}`);
      expect(weatherOnly.status).toBe(403);
      expect(weatherOnly.body.error.code).toBe("FORBIDDEN");
      expect((await events(MARCH)).status).toBe(200);
    });

    it("answers HEAD with the same status and headers and no body", async () => {
      const head = await get(`/api/v1/economics/events?${MARCH}&limit=2`, { method: "HEAD" });
      const full = await events(`${MARCH}&limit=2`);
      expect(head.status).toBe(200);
      expect(head.text).toBe("");
      for (const name of ["content-type", "cache-control", "ratelimit-limit"]) expect(head.headers.get(name), name).toBe(full.headers.get(name));
      const failing = await get("/api/v1/economics/events?tz=Nowhere/Nothing", { method: "HEAD" });
      expect(failing.status).toBe(400);
      expect(failing.text).toBe("");
    });
  });

  describe("records and meta", () => {
    it("orders entries by scheduled date ascending (then timed before date-only, time, id)", async () => {
      const { status, body } = await events(MARCH);
      expect(status).toBe(200);
      expect(idsOf(body)).toEqual(inEventOrder(body.data.entries).map((entry) => entry.id));
      expect(sorted(idsOf(body))).toEqual(sorted(ALL_MARCH));
      const dates = body.data.entries.map((entry: Entry) => entry.scheduledDate);
      expect(dates).toEqual([...dates].sort());
    });

    it("carries the economics freshness meta, a null nextCursor on the last page, and no public-only dataStatus", async () => {
      const { body, headers } = await events(MARCH);
      expect(body.meta).toMatchObject({ lastIngestedAt: EDGE_RUNS.third, lastSuccessfulIngestionAt: EDGE_RUNS.second, dataUpdatedAt: EDGE_RUNS.third, nextCursor: null });
      expect(body.meta).not.toHaveProperty("dataStatus");
      expect(headers.get("cache-control")).toBe("no-store");
    });

    it("describes a timed BLS event, a date-only Eurostat event and an ECB event filed under region EA", async () => {
      const { body } = await events(MARCH);
      const byId = new Map<string, Entry>(body.data.entries.map((entry: Entry) => [entry.id, entry]));
      expect(byId.get(ID.ppi0310)).toMatchObject({
        title: "Producer Price Index", release: { slug: "bls-producer-price-index", publisher: "BLS" },
        country: "US", region: null, currency: "USD", scheduledDate: "2026-03-10", scheduledAt: "2026-03-10T12:30:00.000Z",
        timePrecision: "EXACT_TIME", sourceTimezone: "America/New_York", status: "SCHEDULED", importance: "MEDIUM",
        publication: { releasedAt: null, detectedAt: null, confirmed: false, evidence: [], officialPublication: null },
        attribution: { text: "Source: U.S. Bureau of Labor Statistics", required: true },
      });
      expect(byId.get(ID.hicpFlash0312)).toMatchObject({
        country: null, region: "EA", currency: "EUR", scheduledDate: "2026-03-12", scheduledAt: null, timePrecision: "DATE_ONLY",
        sourceTimezone: "Europe/Luxembourg", referencePeriod: { kind: "MONTH", code: "2026-02", startDate: "2026-02-01", endDate: "2026-02-28" },
        values: { availability: "NOT_YET_AVAILABLE", actual: null, previous: null },
      });
      const ecb = byId.get(ID.ecbDecision0319)!;
      expect(ecb).toMatchObject({ country: null, region: "EA", currency: "EUR", release: { slug: "ecb-monetary-policy-decision", publisher: "ECB" } });
      // The second source attached to the canonical event (no copy) and supplied the time the first lacked.
      expect(ecb.sources.map((source: { sourceId: string }) => source.sourceId)).toEqual(["central-bank-meetings-calendar", "central-bank-statistics-calendar"]);
      expect(ecb).toMatchObject({ scheduledAt: "2026-03-19T13:15:00.000Z", timePrecision: "EXACT_TIME" });
      expect(body.data.entries.filter((entry: Entry) => entry.release.slug === "ecb-monetary-policy-decision")).toHaveLength(1);
    });

    it("confirms only with evidence and serves the published decimal strings in values", async () => {
      const { body } = await events(MARCH);
      const byId = new Map<string, Entry>(body.data.entries.map((entry: Entry) => [entry.id, entry]));
      const cpi = byId.get(ID.cpi0311)!;
      expect(cpi.status).toBe("SCHEDULED");
      expect(cpi.publication).toMatchObject({ confirmed: true, releasedAt: "2026-03-11T12:30:00.000Z", detectedAt: EDGE_RUNS.second, officialPublication: { url: "https://www.bls.gov/news.release/cpi.toc.htm" } });
      expect(cpi.publication.evidence.map((item: { kind: string }) => item.kind)).toEqual(["VERIFIED_VALUE", "VERIFIED_VALUE"]);
      expect(cpi.values).toEqual({
        availability: "AVAILABLE",
        actual: { seriesSlug: "us-cpi-all-items-sa", referencePeriod: "2026-02", value: "327.000" },
        previous: { seriesSlug: "us-cpi-all-items-sa", referencePeriod: "2026-01", value: "326.588" },
      });
      const unemployment = byId.get(ID.unemployment0312)!;
      expect(unemployment.publication.confirmed).toBe(true);
      expect(unemployment.publication.releasedAt).toBeNull();
      expect(unemployment.values.actual).toEqual({ seriesSlug: "ea-unemployment-rate", referencePeriod: "2026-01", value: "6.0" });
      const hicp = byId.get(ID.hicp0318)!;
      expect(hicp.status).toBe("PUBLISHED");
      expect(hicp.publication.evidence.map((item: { kind: string }) => item.kind)).toEqual(["SOURCE_CALENDAR"]);
      expect(byId.get(ID.eci0317)).toMatchObject({ status: "RESCHEDULED", scheduledDate: ECI_MOVED.date, scheduledAt: ECI_MOVED.at });
      expect(byId.get(ID.industrialProduction0312)!.status).toBe("CANCELLED");
    });

    it("publishes no forecast, consensus or expected figure", async () => {
      const { text } = await events(`${MARCH}&tz=UTC`);
      expect(text).not.toMatch(/"[a-zA-Z]*(forecast|consensus|expected|prior|survey)[a-zA-Z]*"\s*:/i);
    });
  });

  describe("tz and the local projection", () => {
    it("defaults to UTC and refuses an unknown zone with VALIDATION_FAILED", async () => {
      await expectError(`${MARCH}&tz=Mars/Olympus_Mons`, 400, "VALIDATION_FAILED");
      await expectError(`${MARCH}&tz=%2B05:00`, 400, "VALIDATION_FAILED");
      const defaulted = await events("from=2026-03-10&to=2026-03-10");
      const explicit = await events("from=2026-03-10&to=2026-03-10&tz=UTC");
      expect(idsOf(defaulted.body)).toEqual(idsOf(explicit.body));
    });

    it("omits the three local fields with neither tz nor timezone, and includes them with either", async () => {
      const plain = await events(MARCH);
      for (const entry of plain.body.data.entries) for (const field of LOCAL_FIELDS) expect(entry).not.toHaveProperty(field);
      const emptySwitch = await events(`${MARCH}&timezone=`);
      for (const entry of emptySwitch.body.data.entries) expect(entry).not.toHaveProperty("localDate");
      for (const query of [`${MARCH}&tz=UTC`, `${MARCH}&timezone=1`, `${MARCH}&tz=Pacific/Kiritimati`]) {
        const { body } = await events(query);
        for (const entry of body.data.entries) for (const field of LOCAL_FIELDS) expect(entry, query).toHaveProperty(field);
      }
    });

    it("treats timezone as a switch only: its value is never read, the zone comes from tz", async () => {
      const { body } = await events(`${MARCH}&timezone=America/Los_Angeles`);
      const cpi = body.data.entries.find((entry: Entry) => entry.id === ID.cpi0311);
      expect(cpi).toMatchObject({ localDate: "2026-03-11", localTime: "12:30", localTimeZone: "UTC" });
      const both = await events(`${MARCH}&tz=Pacific/Kiritimati&timezone=Europe/Paris`);
      expect(both.body.data.entries.find((entry: Entry) => entry.id === ID.cpi0311).localTimeZone).toBe("Pacific/Kiritimati");
    });

    it("projects timed events into the zone and keeps a date-only event's date with no time", async () => {
      const kiritimati = await events(`${MARCH}&tz=Pacific/Kiritimati`);
      const k = new Map<string, Entry>(kiritimati.body.data.entries.map((entry: Entry) => [entry.id, entry]));
      expect(k.get(ID.cpi0311)).toMatchObject({ scheduledDate: "2026-03-11", scheduledAt: "2026-03-11T12:30:00.000Z", localDate: "2026-03-12", localTime: "02:30", localTimeZone: "Pacific/Kiritimati" });
      expect(k.get(ID.hicpFlash0312)).toMatchObject({ localDate: "2026-03-12", localTime: null, localTimeZone: "Pacific/Kiritimati" });
      const losAngeles = await events(`${MARCH}&tz=America/Los_Angeles`);
      const l = new Map<string, Entry>(losAngeles.body.data.entries.map((entry: Entry) => [entry.id, entry]));
      // 2026-03-09 is after the US switch to daylight time (UTC-7).
      expect(l.get(ID.employment0309)).toMatchObject({ localDate: "2026-03-09", localTime: "05:30", localTimeZone: "America/Los_Angeles" });
      expect(l.get(ID.hicpFlash0312)).toMatchObject({ localDate: "2026-03-12", localTime: null });
    });
  });

  describe("from and to", () => {
    it("reads bare dates in UTC by default; a bare to is the start of the next day, so it admits the next UTC date", async () => {
      const { body } = await events("from=2026-03-10&to=2026-03-10");
      expect(sorted(idsOf(body))).toEqual(sorted([ID.ppi0310, ID.cpi0311, ID.realEarnings0311, ID.jolts0311]));
    });

    it("Pacific/Kiritimati (UTC+14): bare dates fall on the previous UTC date, one day before the date written", async () => {
      const { body } = await events("from=2026-03-10&to=2026-03-10&tz=Pacific/Kiritimati");
      // from = 2026-03-09T10:00Z, to = 2026-03-10T10:00Z: UTC dates 03-09 .. 03-10 against scheduledDate.
      expect(idsOf(body)).toEqual([ID.employment0309, ID.ppi0310]);
    });

    it("America/Los_Angeles (UTC-7): a bare to admits events dated the next UTC day", async () => {
      const { body } = await events("from=2026-03-10&to=2026-03-10&tz=America/Los_Angeles");
      // from = 2026-03-10T07:00Z, to = 2026-03-11T07:00Z: UTC dates 03-10 .. 03-11.
      expect(sorted(idsOf(body))).toEqual(sorted([ID.ppi0310, ID.cpi0311, ID.realEarnings0311, ID.jolts0311]));
      const next = await events("from=2026-03-11&to=2026-03-11&tz=America/Los_Angeles");
      expect(sorted(idsOf(next.body))).toEqual(sorted([ID.cpi0311, ID.realEarnings0311, ID.jolts0311, ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312]));
    });

    it("reduces instants with Z or an offset to their UTC date", async () => {
      const utc = await events("from=2026-03-11T00:00:00Z&to=2026-03-11T23:59:59Z");
      expect(sorted(idsOf(utc.body))).toEqual(sorted([ID.cpi0311, ID.realEarnings0311, ID.jolts0311]));
      // 20:00 on the 10th in Los Angeles is 03:00Z on the 11th: the PPI of the 10th is left out.
      const lateEvening = await events(`from=${encodeURIComponent("2026-03-10T20:00:00-07:00")}&to=2026-03-11T12:00:00Z`);
      expect(sorted(idsOf(lateEvening.body))).toEqual(sorted([ID.cpi0311, ID.realEarnings0311, ID.jolts0311]));
      // 08:00 on the 11th in Kiritimati is 18:00Z on the 10th: the events of the 11th are left out.
      for (const offset of ["+14:00", "+1400"]) {
        const earlyMorning = await events(`from=2026-03-09&to=${encodeURIComponent(`2026-03-11T08:00:00${offset}`)}`);
        expect(idsOf(earlyMorning.body), offset).toEqual([ID.employment0309, ID.ppi0310]);
      }
    });

    it("refuses a timestamp without a zone or anything unparsable with ECONOMICS_RANGE_INVALID", async () => {
      for (const query of [
        "from=2026-03-10T10:00:00", "to=2026-03-10T10:00", "from=2026-03-10T10:00:00&to=2026-03-11T10:00:00Z",
        "from=yesterday", "to=2026-3-10", "from=2026-02-30", "from=2026-03-10T25:00:00Z", "from=10/03/2026", "to=2026-03-10Z",
      ]) await expectError(query, 400, "ECONOMICS_RANGE_INVALID");
    });

    it("refuses a start not before the end", async () => {
      await expectError("from=2026-03-11&to=2026-03-10", 400, "ECONOMICS_RANGE_INVALID");
      await expectError("from=2026-03-10T12:00:00Z&to=2026-03-10T12:00:00Z", 400, "ECONOMICS_RANGE_INVALID");
      await expectError("from=2026-03-10T12:00:00Z&to=2026-03-10T11:00:00Z", 400, "ECONOMICS_RANGE_INVALID");
      // A bare to expands to the next day, so the same bare date on both sides is a one-day range.
      expect((await events("from=2026-03-10&to=2026-03-10")).status).toBe(200);
      const oneSecond = await events("from=2026-03-10T12:00:00Z&to=2026-03-10T12:00:01Z");
      expect(idsOf(oneSecond.body)).toEqual([ID.ppi0310]);
    });

    it("accepts a span of exactly 400 days and refuses a longer one", async () => {
      expect((await events("from=2026-01-01&to=2027-02-04")).status).toBe(200);
      await expectError("from=2026-01-01&to=2027-02-05", 400, "ECONOMICS_RANGE_INVALID");
      expect((await events("from=2026-01-01T00:00:00Z&to=2027-02-05T00:00:00Z")).status).toBe(200);
      await expectError("from=2026-01-01T00:00:00Z&to=2027-02-05T00:00:01Z", 400, "ECONOMICS_RANGE_INVALID");
      expect((await events("from=2026-01-01&to=2027-02-04&tz=America/Los_Angeles")).status).toBe(200);
      await expectError("from=2026-01-01&to=2027-02-05&tz=Pacific/Kiritimati", 400, "ECONOMICS_RANGE_INVALID");
    });
  });

  describe("list filters", () => {
    it("country: case-insensitive, never matching an event filed under a region, at most 25", async () => {
      for (const country of ["US", "us", "uS", "us,de"]) {
        expect(sorted(idsOf((await events(`${MARCH}&country=${country}`)).body)), country).toEqual(sorted(BLS_MARCH));
      }
      for (const country of ["EA", "ea", "DE"]) {
        const { status, body } = await events(`${MARCH}&country=${country}`);
        expect(status).toBe(200);
        expect(body.data.entries, country).toEqual([]);
      }
      expect((await events(`${MARCH}&country=US,${list(24, (index) => `X${String.fromCharCode(65 + index)}`)}`)).status).toBe(200);
      await expectError(`${MARCH}&country=US,${list(25, (index) => `X${String.fromCharCode(65 + index)}`)}`, 400, "VALIDATION_FAILED");
    });

    it("region: enum, case-insensitive, unknown refused, at most 10", async () => {
      expect(sorted(idsOf((await events(`${MARCH}&region=ea`)).body))).toEqual(sorted(EA_MARCH));
      expect(sorted(idsOf((await events(`${MARCH}&region=Ea,g7`)).body))).toEqual(sorted(EA_MARCH));
      expect((await events(`${MARCH}&region=G20`)).body.data.entries).toEqual([]);
      for (const region of ["XX", "ea,us", "euro"]) await expectError(`${MARCH}&region=${region}`, 400, "VALIDATION_FAILED");
      expect((await events(`${MARCH}&region=${list(10, () => "EA")}`)).status).toBe(200);
      await expectError(`${MARCH}&region=${list(11, () => "EA")}`, 400, "VALIDATION_FAILED");
    });

    it("currency: case-insensitive, not validated (an unknown code matches nothing), at most 10", async () => {
      expect(sorted(idsOf((await events(`${MARCH}&currency=usd`)).body))).toEqual(sorted(BLS_MARCH));
      expect(sorted(idsOf((await events(`${MARCH}&currency=EUR`)).body))).toEqual(sorted(EA_MARCH));
      expect(sorted(idsOf((await events(`${MARCH}&currency=usd,XYZ`)).body))).toEqual(sorted(BLS_MARCH));
      const unknown = await events(`${MARCH}&currency=XYZ`);
      expect(unknown.status).toBe(200);
      expect(unknown.body.data.entries).toEqual([]);
      expect((await events(`${MARCH}&currency=${list(10, () => "USD")}`)).status).toBe(200);
      await expectError(`${MARCH}&currency=${list(11, () => "USD")}`, 400, "VALIDATION_FAILED");
    });

    it("importance: enum, case-insensitive, unknown refused, at most 4", async () => {
      expect(sorted(idsOf((await events(`${MARCH}&importance=high`)).body))).toEqual(sorted([ID.employment0309, ID.cpi0311, ID.hicpFlash0312, ID.unemployment0312, ID.ecbDecision0319]));
      expect(sorted(idsOf((await events(`${MARCH}&importance=Low`)).body))).toEqual([ID.realEarnings0311]);
      expect((await events(`${MARCH}&importance=unclassified`)).body.data.entries).toEqual([]);
      await expectError(`${MARCH}&importance=critical`, 400, "VALIDATION_FAILED");
      expect(sorted(idsOf((await events(`${MARCH}&importance=HIGH,MEDIUM,LOW,UNCLASSIFIED`)).body))).toEqual(sorted(ALL_MARCH));
      await expectError(`${MARCH}&importance=HIGH,MEDIUM,LOW,UNCLASSIFIED,HIGH`, 400, "VALIDATION_FAILED");
    });

    it("release: exact and case-sensitive, at most 25", async () => {
      expect(idsOf((await events(`${MARCH}&release=bls-consumer-price-index`)).body)).toEqual([ID.cpi0311]);
      for (const release of ["BLS-Consumer-Price-Index", "bls-consumer-price", "no-such-release"]) {
        const { status, body } = await events(`${MARCH}&release=${release}`);
        expect(status).toBe(200);
        expect(body.data.entries, release).toEqual([]);
      }
      expect((await events(`${MARCH}&release=${list(25, () => "bls-consumer-price-index")}`)).status).toBe(200);
      await expectError(`${MARCH}&release=${list(26, () => "bls-consumer-price-index")}`, 400, "VALIDATION_FAILED");
    });

    it("source: exact and case-sensitive, at most 10; an event matches any of its sources", async () => {
      expect(idsOf((await events(`${MARCH}&source=central-bank-meetings-calendar`)).body)).toEqual([ID.ecbDecision0319]);
      expect(idsOf((await events(`${MARCH}&source=central-bank-statistics-calendar`)).body)).toEqual([ID.ecbDecision0319]);
      expect(sorted(idsOf((await events(`${MARCH}&source=eu-stats-release-calendar,central-bank-statistics-calendar`)).body)))
        .toEqual(sorted([ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312, ID.hicp0318, ID.ecbDecision0319]));
      const wrongCase = await events(`${MARCH}&source=Central-Bank-Meetings-Calendar`);
      expect(wrongCase.status).toBe(200);
      expect(wrongCase.body.data.entries).toEqual([]);
      expect((await events(`${MARCH}&source=${list(10, () => "eu-stats-release-calendar")}`)).status).toBe(200);
      await expectError(`${MARCH}&source=${list(11, () => "eu-stats-release-calendar")}`, 400, "VALIDATION_FAILED");
    });

    it("combines different filters with AND", async () => {
      expect(sorted(idsOf((await events(`${MARCH}&country=us&importance=high`)).body))).toEqual(sorted([ID.employment0309, ID.cpi0311]));
      expect((await events(`${MARCH}&country=us&region=ea`)).body.data.entries).toEqual([]);
    });
  });

  describe("limit and cursor", () => {
    const BULK_RANGE = "from=2027-01-01&to=2027-01-31";

    it("defaults to 100 and clamps to 500", async () => {
      const defaulted = await events(BULK_RANGE);
      expect(defaulted.body.data.entries).toHaveLength(100);
      expect(defaulted.body.meta.nextCursor).toEqual(expect.any(String));
      const clamped = await events(`${BULK_RANGE}&limit=1000`);
      expect(clamped.body.data.entries).toHaveLength(500);
      expect(clamped.body.meta.nextCursor).toEqual(expect.any(String));
      expect((await events(`${BULK_RANGE}&limit=${encodeURIComponent("3.7")}`)).body.data.entries).toHaveLength(3);
      expect((await events(`${BULK_RANGE}&limit=`)).body.data.entries).toHaveLength(100);
    });

    it("refuses a limit below 1 or not starting with an integer", async () => {
      for (const limit of ["0", "-1", "abc", ".5"]) await expectError(`${BULK_RANGE}&limit=${limit}`, 400, "VALIDATION_FAILED");
    });

    it("pages through the whole filtered set with identical filters: no gaps, no repeats, same order", async () => {
      const whole = (await events(`${BULK_RANGE}&limit=500`)).body;
      const rest = (await events(`${BULK_RANGE}&limit=500&cursor=${whole.meta.nextCursor}`)).body;
      expect(rest.meta.nextCursor).toBeNull();
      const reference = [...idsOf(whole), ...idsOf(rest)];
      expect(reference).toHaveLength(BULK.count);

      const paged: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `${BULK_RANGE}&limit=150${cursor ? `&cursor=${cursor}` : ""}`;
        const { status, body } = await events(query);
        expect(status).toBe(200);
        sizes.push(body.data.entries.length);
        paged.push(...idsOf(body));
        cursor = body.meta.nextCursor;
      } while (cursor !== null);
      expect(sizes).toEqual([150, 150, 150, 70]);
      expect(paged).toEqual(reference);
      expect(new Set(paged).size).toBe(BULK.count);
    });

    it("pages a filtered set spanning both corpora", async () => {
      const query = "from=2026-03-01&to=2027-01-31&importance=low&country=US";
      const first = await events(`${query}&limit=300`);
      const second = await events(`${query}&limit=300&cursor=${first.body.meta.nextCursor}`);
      expect(first.body.data.entries).toHaveLength(300);
      expect(second.body.data.entries).toHaveLength(BULK.count + 1 - 300);
      expect(second.body.meta.nextCursor).toBeNull();
      expect(idsOf(first.body)[0]).toBe(ID.realEarnings0311);
    });

    it("gives a null nextCursor exactly when the page reaches the end of the filtered set", async () => {
      const exact = await events(`${MARCH}&limit=${ALL_MARCH.length}`);
      expect(exact.body.data.entries).toHaveLength(ALL_MARCH.length);
      expect(exact.body.meta.nextCursor).toBeNull();
      const short = await events(`${MARCH}&limit=${ALL_MARCH.length - 1}`);
      expect(short.body.meta.nextCursor).toEqual(expect.any(String));
      const last = await events(`${MARCH}&limit=${ALL_MARCH.length - 1}&cursor=${short.body.meta.nextCursor}`);
      expect(idsOf(last.body)).toEqual([idsOf(exact.body).at(-1)]);
      expect(last.body.meta.nextCursor).toBeNull();
    });

    it("refuses an undecodable cursor and answers a cursor past the end with an empty page", async () => {
      for (const cursor of ["not-a-cursor", "%25%25%25", encodeURIComponent(Buffer.from("o:-1").toString("base64url")), "bzp4"]) {
        await expectError(`${BULK_RANGE}&cursor=${cursor}`, 400, "VALIDATION_FAILED");
      }
      const past = await events(`${BULK_RANGE}&cursor=${encodeCursor(100_000)}`);
      expect(past.status).toBe(200);
      expect(past.body.data.entries).toEqual([]);
      expect(past.body.meta.nextCursor).toBeNull();
      const exactEnd = await events(`${BULK_RANGE}&cursor=${encodeCursor(BULK.count)}`);
      expect(exactEnd.body.data.entries).toEqual([]);
      expect(exactEnd.body.meta.nextCursor).toBeNull();
    });
  });

  describe("derivedState from the clock", () => {
    const stateAt = async (clock: string, id: string) => {
      service.clock.set(clock);
      const { body } = await events(MARCH);
      return body.data.entries.find((entry: Entry) => entry.id === id) as Entry;
    };
    afterAll(() => service.clock.set("2026-03-14T12:00:00Z"));

    it("timed event: UPCOMING before its day in the source zone, DUE_TODAY on it, PAST_DUE once the time has passed", async () => {
      // PPI at 08:30 New York (EDT, UTC-4) on 2026-03-10; the day starts at 04:00Z.
      expect((await stateAt("2026-03-10T03:59:59.999Z", ID.ppi0310)).derivedState).toBe("UPCOMING");
      expect((await stateAt("2026-03-10T04:00:00.000Z", ID.ppi0310)).derivedState).toBe("DUE_TODAY");
      expect((await stateAt("2026-03-10T12:29:59.999Z", ID.ppi0310)).derivedState).toBe("DUE_TODAY");
      const due = await stateAt("2026-03-10T12:30:00.000Z", ID.ppi0310);
      expect(due.derivedState).toBe("PAST_DUE_AWAITING_CONFIRMATION");
      // The source's status never changes because time passed.
      expect(due.status).toBe("SCHEDULED");
      expect((await stateAt("2026-11-21T12:00:00Z", ID.ppi0310)).status).toBe("SCHEDULED");
    });

    it("date-only event: past due at the end of its date in the source zone, not the UTC end", async () => {
      // Luxembourg (CET, UTC+1): 2026-03-12 runs from 2026-03-11T23:00Z to 2026-03-12T23:00Z.
      expect((await stateAt("2026-03-11T22:59:59.999Z", ID.hicpFlash0312)).derivedState).toBe("UPCOMING");
      expect((await stateAt("2026-03-11T23:00:00.000Z", ID.hicpFlash0312)).derivedState).toBe("DUE_TODAY");
      expect((await stateAt("2026-03-12T22:59:59.999Z", ID.hicpFlash0312)).derivedState).toBe("DUE_TODAY");
      expect((await stateAt("2026-03-12T23:00:00.000Z", ID.hicpFlash0312)).derivedState).toBe("PAST_DUE_AWAITING_CONFIRMATION");
      expect((await stateAt("2026-03-12T23:30:00.000Z", ID.hicpFlash0312)).derivedState).toBe("PAST_DUE_AWAITING_CONFIRMATION");
    });

    it("evidence gives CONFIRMED_PUBLISHED whatever the clock; a withdrawn event is CANCELLED_AT_SOURCE", async () => {
      for (const clock of ["2026-03-01T00:00:00Z", "2026-03-11T12:00:00Z", "2026-12-01T00:00:00Z"]) {
        expect((await stateAt(clock, ID.cpi0311)).derivedState, clock).toBe("CONFIRMED_PUBLISHED");
        expect((await stateAt(clock, ID.unemployment0312)).derivedState, clock).toBe("CONFIRMED_PUBLISHED");
        expect((await stateAt(clock, ID.hicp0318)).derivedState, clock).toBe("CONFIRMED_PUBLISHED");
        expect((await stateAt(clock, ID.industrialProduction0312)).derivedState, clock).toBe("CANCELLED_AT_SOURCE");
      }
    });

    it("a rescheduled event is judged by its new time and keeps status RESCHEDULED", async () => {
      expect((await stateAt("2026-03-17T13:00:00Z", ID.eci0317)).derivedState).toBe("UPCOMING");
      const after = await stateAt("2026-03-18T12:30:00Z", ID.eci0317);
      expect(after.derivedState).toBe("PAST_DUE_AWAITING_CONFIRMATION");
      expect(after.status).toBe("RESCHEDULED");
    });
  });
});

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
      expect(entry.scheduledDate >= "2023-01-01" && entry.scheduledDate <= "2024-02-01", entry.scheduledDate).toBe(true);
    }
    const publishers = new Set(entries.map((entry) => entry.release.publisher));
    expect([...publishers].sort()).toEqual(["BLS", "ECB", "EUROSTAT"]);
    expect(body.meta).toMatchObject({ lastIngestedAt: SAMPLE_INGESTED_AT, lastSuccessfulIngestionAt: SAMPLE_INGESTED_AT, dataUpdatedAt: SAMPLE_INGESTED_AT, nextCursor: null });
  });

  it("pages the real corpus with the default limit and identical filters", async () => {
    const whole: Entry[] = (await get(`/api/v1/economics/events?${RANGE}&limit=500`)).body.data.entries;
    const first = await get(`/api/v1/economics/events?${RANGE}`);
    expect(first.body.data.entries).toHaveLength(100);
    const second = await get(`/api/v1/economics/events?${RANGE}&cursor=${first.body.meta.nextCursor}`);
    expect(second.body.meta.nextCursor).toBeNull();
    expect([...idsOf(first.body), ...idsOf(second.body)]).toEqual(whole.map((entry) => entry.id));
  });

  it("finds the BLS CPI release of 2025-07-15 at 08:30 New York and judges it against the clock", async () => {
    const query = "/api/v1/economics/events?from=2025-07-15&to=2025-07-15&release=bls-consumer-price-index";
    const { body } = await get(query);
    expect(body.data.entries).toHaveLength(1);
    expect(body.data.entries[0]).toMatchObject({
      title: "Consumer Price Index", scheduledDate: "2025-07-15", scheduledAt: "2025-07-15T12:30:00.000Z", timePrecision: "EXACT_TIME",
      sourceTimezone: "America/New_York", status: "SCHEDULED", importance: "HIGH", derivedState: "PAST_DUE_AWAITING_CONFIRMATION",
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

describe("GET /api/v1/economics/events at the response ceiling", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  const RANGE = `from=${LONG_TITLES.from}&to=${LONG_TITLES.to}`;

  beforeAll(async () => {
    service = await startService({ seedDataDir: longTitleDataDir() });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("cuts a page over 1 MB, marks it truncated, and resumes the cursor after the last entry served", async () => {
    const reference: string[] = [];
    let cursor: string | null = null;
    do {
      const response: { body: any } = await get(`/api/v1/economics/events?${RANGE}&limit=50${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.body.meta).not.toHaveProperty("truncated");
      reference.push(...idsOf(response.body));
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(reference).toHaveLength(LONG_TITLES.count);

    const paged: string[] = [];
    let truncatedPages = 0;
    cursor = null;
    do {
      const response: { status: number; text: string; body: any } = await get(`/api/v1/economics/events?${RANGE}&limit=500${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.status).toBe(200);
      expect(Buffer.byteLength(response.text)).toBeLessThanOrEqual(RESPONSE_CEILING_BYTES);
      if (response.body.meta.truncated === true) truncatedPages++;
      expect(response.body.data.entries.length).toBeGreaterThan(0);
      paged.push(...idsOf(response.body));
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(truncatedPages).toBeGreaterThan(0);
    expect(paged).toEqual(reference);
  });
});
