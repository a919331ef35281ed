import { afterAll, describe, expect, it } from "vitest";
import { SAMPLE_TITLES, sampleNewsService, titles } from "./news-route-fixtures.ts";
import { removeTempDirs } from "./news-support.ts";

afterAll(removeTempDirs);

describe("GET /api/public/v1/news/events on the sample archive", () => {
  const { clock, get, refuse } = sampleNewsService();

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
      await refuse(query);
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
      await refuse(`${name}=${Array.from({ length: 11 }, (_, n) => `v${n}`).join(",")}`);
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
      await refuse(query);
    });
  });

});
