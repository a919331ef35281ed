import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { DATA_FRESH_HOURS } from "../../schemas/limits.ts";
import { encodeCursor } from "../../server/http/params.ts";
import { fakeClock, startService, type RunningService } from "../support/service.ts";
import { archiveWith, atomFeed, ingest, SAMPLES_DIR, sampleDataDir, tempDir, type AtomEntry, removeTempDirs } from "./news-support.ts";

afterAll(removeTempDirs);

const NEWS = "/api/public/v1/news/events";
const INGESTED_AT = "2026-07-24T06:00:00.000Z";
const HOUR = 3_600_000;

/** The sample feeds' ten announcements, newest first (their links are checked in linking.test.ts). */
const SAMPLE_TITLES = [
  "Monetary policy decisions",
  "Isabel Schnabel: The transmission of monetary policy",
  "Monetary policy decisions",
  "ECB publishes supervisory banking statistics for the first quarter of 2026",
  "Consumer Price Index - February 2026",
  "Consumer Price Index and Real Earnings - December 2025",
  "Real Earnings - November 2025",
  "The Employment Situation - November 2025",
  "Employer Costs for Employee Compensation - September 2025",
  "Consumer Price Index - September 2025",
];

const titles = (body: any): string[] => body.data.events.map((event: { title: string }) => event.title);

async function expectRefused(service: RunningService, query: string): Promise<void> {
  const { status, body, headers } = await service.request(`${NEWS}?${query}`);
  expect(status, query).toBe(400);
  expect(body.error.code, query).toBe("VALIDATION_FAILED");
  expect(headers.get("cache-control")).toBe("no-store");
}

describe("GET /api/public/v1/news/events on the sample archive", () => {
  const clock = fakeClock("2026-07-25T12:00:00Z");
  let service: RunningService;
  const get = (query = "") => service.request(`${NEWS}${query ? `?${query}` : ""}`);

  beforeAll(async () => {
    service = await startService({ clock, seedDataDir: await sampleDataDir(INGESTED_AT) });
  });
  afterAll(async () => {
    await service?.close();
  });

  it("answers newest first with every announcement of the window, each with its link and evidence", async () => {
    const { status, body } = await get();
    expect(status).toBe(200);
    expect(titles(body)).toEqual(SAMPLE_TITLES);
    const times = body.data.events.map((event: { publishedAt: string }) => event.publishedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.meta.nextCursor).toBeNull();
    const cpi = body.data.events.find((event: any) => event.title === "Consumer Price Index - September 2025");
    expect(cpi).toMatchObject({
      url: "https://www.bls.gov/news.release/archives/cpi_10242025.htm", publishedAt: "2025-10-24T12:30:00.000Z",
      source: "bls-news-feed", type: "RELEASE", topic: "prices", state: "NEW", linkStatus: "LINKED",
      links: { calendarEvent: { linkStatus: "LINKED" }, releaseFamily: { slug: "bls-consumer-price-index", linkStatus: "LINKED" } },
    });
    expect(cpi.links.calendarEvent.evidence.map((item: { rule: string }) => item.rule)).toEqual(["RELEASE_NAME", "PUBLICATION_TIME_IN_SCHEDULED_WINDOW"]);
  });

  it("gives a next cursor only when more items remain", async () => {
    const exact = await get("limit=10");
    expect(titles(exact.body)).toEqual(SAMPLE_TITLES);
    expect(exact.body.meta.nextCursor).toBeNull();
    const short = await get("limit=9");
    expect(titles(short.body)).toEqual(SAMPLE_TITLES.slice(0, 9));
    const rest = await get(`limit=9&cursor=${encodeURIComponent(short.body.meta.nextCursor)}`);
    expect(titles(rest.body)).toEqual(SAMPLE_TITLES.slice(9));
    expect(rest.body.meta.nextCursor).toBeNull();
  });

  it("sends Cache-Control public, max-age=300 and a weak ETag", async () => {
    const { headers } = await get();
    expect(headers.get("cache-control")).toBe("public, max-age=300");
    expect(headers.get("etag")).toMatch(/^W\//);
  });

  describe("window", () => {
    it("defaults to the last 366 days on the service's clock", async () => {
      try {
        // 366 days before 2026-10-25 is 2025-10-24, the day of the oldest announcement (12:30Z).
        clock.set("2026-10-25T06:00:00Z");
        expect(titles((await get()).body)).toEqual(SAMPLE_TITLES);
        // A day and a half later that announcement is 367 days old.
        clock.set("2026-10-26T18:00:00Z");
        expect(titles((await get()).body)).toEqual(SAMPLE_TITLES.slice(0, -1));
        // Announcements after the clock are not in the default window.
        clock.set("2026-06-11T18:00:00Z");
        expect(titles((await get()).body)).toEqual(SAMPLE_TITLES.slice(2));
      } finally {
        clock.set("2026-07-25T12:00:00Z");
      }
    });

    it.each([
      ["from=2025-12-01&to=2025-12-31", SAMPLE_TITLES.slice(6, 9)],
      ["from=2025-12-16&to=2025-12-16", ["The Employment Situation - November 2025"]],
      ["from=2025-12-16T12:51:00Z&to=2025-12-18T13:00:00Z", ["The Employment Situation - November 2025"]],
      ["from=2025-12-16T07:52:00-05:00&to=2025-12-31", ["Real Earnings - November 2025"]],
      ["from=2026-06-01", SAMPLE_TITLES.slice(0, 4)],
      ["to=2025-12-31", SAMPLE_TITLES.slice(6)],
    ])("%s", async (query, expected) => {
      const { status, body } = await get(query);
      expect(status).toBe(200);
      expect(titles(body)).toEqual(expected);
    });

    it.each([
      "from=2026-01-01&to=2025-12-01", "from=2025-12-01T00:00:00", "from=yesterday", "to=2025-02-30", "from=2015-01-01&to=2026-01-01",
    ])("refuses %s", async (query) => {
      await expectRefused(service, query);
    });
  });

  describe("filters", () => {
    it.each([
      ["source=ecb-press-feed", SAMPLE_TITLES.slice(0, 4)],
      ["source=bls-news-feed,ecb-press-feed", SAMPLE_TITLES],
      ["source=eu-stats-release-calendar", []],
      ["releaseFamily=bls-consumer-price-index", ["Consumer Price Index - February 2026", "Consumer Price Index - September 2025"]],
      ["releaseFamily=ecb-monetary-policy-decision,bls-real-earnings", ["Monetary policy decisions", "Monetary policy decisions", "Real Earnings - November 2025"]],
      ["series=us-cpi-all-items-sa", ["Consumer Price Index - February 2026", "Consumer Price Index - September 2025"]],
      ["series=ecb-deposit-facility-rate", ["Monetary policy decisions", "Monetary policy decisions"]],
      ["series=us-unemployment-rate,us-cpi-all-items-nsa", ["Consumer Price Index - February 2026", "The Employment Situation - November 2025", "Consumer Price Index - September 2025"]],
      ["country=us", ["Consumer Price Index - February 2026", "Real Earnings - November 2025", "The Employment Situation - November 2025", "Consumer Price Index - September 2025"]],
      ["country=DE", []],
      ["topic=PRICES", ["Consumer Price Index - February 2026", "Consumer Price Index - September 2025"]],
      ["topic=monetary_policy", ["Monetary policy decisions", "Monetary policy decisions"]],
      ["topic=labour", ["The Employment Situation - November 2025"]],
      ["source=bls-news-feed&linkStatus=LINKED&topic=prices", ["Consumer Price Index - February 2026", "Consumer Price Index - September 2025"]],
    ])("%s", async (query, expected) => {
      const { status, body } = await get(query);
      expect(status).toBe(200);
      expect(titles(body)).toEqual(expected);
    });

    it("matches a filtered announcement on the field it filters", async () => {
      for (const event of (await get("source=ecb-press-feed")).body.data.events) expect(event.source).toBe("ecb-press-feed");
      for (const event of (await get("releaseFamily=bls-consumer-price-index")).body.data.events) expect(event.links.releaseFamily.slug).toBe("bls-consumer-price-index");
      for (const event of (await get("series=ecb-deposit-facility-rate")).body.data.events) {
        expect(event.links.series.map((series: { slug: string }) => series.slug)).toContain("ecb-deposit-facility-rate");
      }
    });

    it.each(["source", "releaseFamily", "series", "country", "topic"])("refuses more than 10 values of %s", async (name) => {
      await expectRefused(service, `${name}=${Array.from({ length: 11 }, (_, n) => `v${n}`).join(",")}`);
    });
  });

  describe("closed enumerations", () => {
    it.each([
      ["state=NEW", SAMPLE_TITLES],
      ["state=new", SAMPLE_TITLES],
      ["state=UPDATED,WITHDRAWN", []],
      ["linkStatus=LINKED", SAMPLE_TITLES.filter((_, n) => [0, 2, 4, 6, 7, 9].includes(n))],
      ["linkStatus=ambiguous", ["Consumer Price Index and Real Earnings - December 2025"]],
      ["linkStatus=UNLINKED", [SAMPLE_TITLES[1], SAMPLE_TITLES[3], SAMPLE_TITLES[8]]],
      ["linkStatus=LINKED,AMBIGUOUS,UNLINKED", SAMPLE_TITLES],
      ["type=RELEASE", SAMPLE_TITLES.slice(4)],
      ["type=MONETARY_POLICY_DECISION", ["Monetary policy decisions", "Monetary policy decisions"]],
      ["type=speech", ["Isabel Schnabel: The transmission of monetary policy"]],
      ["type=PRESS_RELEASE", ["ECB publishes supervisory banking statistics for the first quarter of 2026"]],
      ["type=OTHER", []],
    ])("%s", async (query, expected) => {
      const { status, body } = await get(query);
      expect(status).toBe(200);
      expect(titles(body)).toEqual(expected);
    });

    it.each(["state=DELETED", "state=NEW,GONE", "linkStatus=PARTIAL", "type=BLOG", "type=RELEASE,INTERVIEW"])("refuses an unknown value: %s", async (query) => {
      await expectRefused(service, query);
    });
  });

  describe("meta", () => {
    it("dataUpdatedAt is the feeds' newest content change (this index: the first sight of every item)", async () => {
      expect((await get()).body.meta.dataUpdatedAt).toBe(INGESTED_AT);
      // Not the newest publication, and not moved by a filter that hides items.
      expect((await get("source=bls-news-feed")).body.meta.dataUpdatedAt).toBe(INGESTED_AT);
    });

    it(`dataStatus is fresh until ${DATA_FRESH_HOURS} h after the feeds' last success, stale after`, async () => {
      try {
        clock.set(new Date(Date.parse(INGESTED_AT) + DATA_FRESH_HOURS * HOUR).toISOString());
        expect((await get()).body.meta.dataStatus).toBe("fresh");
        clock.advance(1000);
        expect((await get()).body.meta.dataStatus).toBe("stale");
      } finally {
        clock.set("2026-07-25T12:00:00Z");
      }
    });
  });
});

describe("states and dataUpdatedAt after a later snapshot of the ECB feed", () => {
  const clock = fakeClock("2026-07-25T12:00:00Z");
  let service: RunningService;
  const SECOND_RUN = "2026-07-25T06:00:00.000Z";
  const THIRD_RUN = "2026-07-25T09:00:00.000Z";

  beforeAll(async () => {
    service = await startService({ clock, seedDataDir: await sampleDataDir(INGESTED_AT) });
    const original = readFileSync(join(SAMPLES_DIR, "ecb-press-feed", "ecb-press-constructed.xml"), "utf8");
    const changed = original
      .replace(" Isabel Schnabel: The transmission of monetary policy", " Isabel Schnabel: The transmission of monetary policy in the euro area")
      .replace(/\s*<item>\s*<title>Monetary policy decisions<\/title>\s*<link>[^<]*ecb\.mp260611[^]*?<\/item>/, "");
    expect(changed).not.toContain("mp260611");
    const archive = archiveWith({ "ecb-press-feed": { "ecb-press.xml": changed } });
    expect((await ingest(service.dataDir, archive, SECOND_RUN)).outcome).toBe("succeeded");
  });
  afterAll(async () => {
    await service?.close();
  });

  it("filters by state: UPDATED for the retitled speech, WITHDRAWN for the vanished decision", async () => {
    const updated = await service.request(`${NEWS}?state=UPDATED`);
    expect(titles(updated.body)).toEqual(["Isabel Schnabel: The transmission of monetary policy in the euro area"]);
    const withdrawn = await service.request(`${NEWS}?state=withdrawn`);
    expect(withdrawn.body.data.events.map((event: any) => [event.title, event.publishedAt, event.state])).toEqual([
      ["Monetary policy decisions", "2026-06-11T12:15:00.000Z", "WITHDRAWN"],
    ]);
    expect((await service.request(`${NEWS}?state=NEW`)).body.data.events).toHaveLength(8);
  });

  it("moves dataUpdatedAt to the run that changed content, and not on a run that changed nothing", async () => {
    expect((await service.request(NEWS)).body.meta.dataUpdatedAt).toBe(SECOND_RUN);
    const third = await ingest(service.dataDir, SAMPLES_DIR, THIRD_RUN);
    expect(third.outcome).toBe("succeeded");
    // The third run (the original sample feed) put the speech's title and the decision back: a change again.
    expect((await service.request(NEWS)).body.meta.dataUpdatedAt).toBe(THIRD_RUN);
    expect((await service.request(`${NEWS}?state=UPDATED`)).body.data.events).toHaveLength(2);
    const fourth = await ingest(service.dataDir, SAMPLES_DIR, "2026-07-25T10:00:00.000Z");
    expect(fourth.outcome).toBe("succeeded");
    const { body } = await service.request(NEWS);
    expect(body.meta.dataUpdatedAt).toBe(THIRD_RUN);
  });
});

describe("paging", () => {
  const clock = fakeClock("2026-07-24T12:00:00Z");
  let service: RunningService;
  const ARCHIVES = "https://www.bls.gov/news.release/archives/";
  const COUNT = 130;
  /** 130 announcements of unregistered releases, one a day going back from 2026-07-23. */
  const entries: AtomEntry[] = Array.from({ length: COUNT }, (_, n) => ({
    id: `${ARCHIVES}test_${String(n).padStart(3, "0")}.htm`,
    title: `County Employment and Wages - item ${n}`,
    published: new Date(Date.parse("2026-07-23T12:00:00Z") - n * 24 * HOUR).toISOString().replace(".000Z", "Z"),
  }));
  const expectedIds = entries.map((entry) => entry.id);

  beforeAll(async () => {
    const dataDir = tempDir("paging");
    const archive = archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed(entries) } }, "empty");
    expect((await ingest(dataDir, archive, "2026-07-24T06:00:00.000Z", ["bls-news-feed"])).outcome).toBe("succeeded");
    service = await startService({ clock, seedDataDir: dataDir });
  });
  afterAll(async () => {
    await service?.close();
  });
  const urls = (body: any): string[] => body.data.events.map((event: { url: string }) => event.url);

  it.each([
    ["", 20], ["limit=1", 1], ["limit=3.7", 3], ["limit=100", 100], ["limit=101", 100], ["limit=500", 100],
  ])("limit %s gives %i", async (query, size) => {
    const { status, body } = await service.request(`${NEWS}?${query}`);
    expect(status).toBe(200);
    expect(urls(body)).toEqual(expectedIds.slice(0, size));
    expect(body.meta.nextCursor).toEqual(expect.any(String));
  });

  it.each(["limit=0", "limit=-5", "limit=abc"])("refuses %s", async (query) => {
    await expectRefused(service, query);
  });

  it("pages through the whole window with nextCursor, no item twice or missed, in order", async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await service.request(`${NEWS}?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(status).toBe(200);
      seen.push(...urls(body));
      sizes.push(body.data.events.length);
      cursor = body.meta.nextCursor;
    } while (cursor !== null);
    expect(sizes).toEqual([25, 25, 25, 25, 25, 5]);
    expect(seen).toEqual(expectedIds);
  });

  it("a cursor holds its filters' offset: the same filters give the following page", async () => {
    const first = await service.request(`${NEWS}?linkStatus=UNLINKED&limit=100`);
    const second = await service.request(`${NEWS}?linkStatus=UNLINKED&limit=100&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect(urls(second.body)).toEqual(expectedIds.slice(100));
    expect(second.body.meta.nextCursor).toBeNull();
  });

  it("refuses an undecodable cursor and answers an empty last page past the end", async () => {
    await expectRefused(service, "cursor=not-a-cursor!");
    await expectRefused(service, `cursor=${Buffer.from("nope").toString("base64url")}`);
    const past = await service.request(`${NEWS}?cursor=${encodeCursor(1000)}`);
    expect(past.status).toBe(200);
    expect(past.body.data.events).toEqual([]);
    expect(past.body.meta.nextCursor).toBeNull();
  });
});

describe("without announcements to serve", () => {
  it("no published index: 503 SERVICE_UNAVAILABLE with Retry-After, parameters still validated first", async () => {
    const service = await startService({ clock: fakeClock() });
    try {
      const { status, body, headers } = await service.request(NEWS);
      expect(status).toBe(503);
      expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
      expect(headers.get("retry-after")).toMatch(/^\d+$/);
      await expectRefused(service, "type=BLOG");
    } finally {
      await service.close();
    }
  });

  it("no durable storage bound: 503", async () => {
    const service = await startService({ clock: fakeClock(), storageEnabled: false });
    try {
      const { status, body } = await service.request(NEWS);
      expect(status).toBe(503);
      expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
    } finally {
      await service.close();
    }
  });

  it("an index whose news feeds never succeeded: 200, no events, dataStatus unavailable, dataUpdatedAt null", async () => {
    const dataDir = tempDir("no-news");
    const calendarsOnly = SOURCES.filter((source) => source.kind !== "news").map((source) => source.slug);
    expect((await ingest(dataDir, SAMPLES_DIR, INGESTED_AT, calendarsOnly)).outcome).toBe("succeeded");
    const service = await startService({ clock: fakeClock("2026-07-24T07:00:00Z"), seedDataDir: dataDir });
    try {
      const { status, body } = await service.request(NEWS);
      expect(status).toBe(200);
      expect(body.data.events).toEqual([]);
      expect(body.meta).toMatchObject({ dataStatus: "unavailable", dataUpdatedAt: null, nextCursor: null });
    } finally {
      await service.close();
    }
  });
});
