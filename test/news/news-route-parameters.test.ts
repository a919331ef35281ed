import { afterAll, describe, expect, it } from "vitest";
import { ECB_ITEMS, SAMPLE_TITLES, sampleNewsService, titles } from "./news-route-fixtures.ts";
import { removeTempDirs } from "./news-support.ts";

afterAll(removeTempDirs);

describe("GET /api/public/v1/news/events on the sample archive", () => {
  const { clock, get, refuse } = sampleNewsService();

  it("answers newest first with every announcement of the window, each with its link and evidence", async () => {
    // 21 announcements: one more than the default page of 20.
    const page = await get();
    expect(titles(page.body)).toEqual(SAMPLE_TITLES.slice(0, 20));
    expect(page.body.meta.nextCursor).toEqual(expect.any(String));
    const { status, body } = await get("limit=100");
    expect(status).toBe(200);
    expect(titles(body)).toEqual(SAMPLE_TITLES);
    const times = body.data.events.map((event: { publishedAt: string }) => event.publishedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.meta.nextCursor).toBeNull();
    const cpi = body.data.events.find((event: any) => event.title === "Consumer Price Index - September 2025");
    expect(cpi).toMatchObject({
      url: "https://www.bls.gov/news.release/archives/cpi_10242025.htm",
      publishedAt: "2025-10-24T12:30:00.000Z",
      source: "bls-news-feed",
      type: "RELEASE",
      topic: "prices",
      state: "NEW",
      linkStatus: "LINKED",
      links: {
        calendarEvent: { linkStatus: "LINKED" },
        releaseFamily: { slug: "bls-consumer-price-index", linkStatus: "LINKED" },
      },
    });
    expect(cpi.links.calendarEvent.evidence.map((item: { rule: string }) => item.rule)).toEqual([
      "RELEASE_NAME",
      "PUBLICATION_TIME_IN_SCHEDULED_WINDOW",
    ]);
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
        expect(titles((await get("limit=100")).body)).toEqual(SAMPLE_TITLES);
        // A day and a half later that announcement is 367 days old.
        clock.set("2026-10-26T18:00:00Z");
        expect(titles((await get("limit=100")).body)).toEqual(SAMPLE_TITLES.slice(0, -1));
        // Announcements after the clock are not in the default window: at 11:00Z on 19 June the ECB's items of 19 June
        // 10:00, 12:15 and 12:30 local (08:00Z to 10:30Z) are in it, those from 22 June on are not.
        clock.set("2026-06-19T11:00:00Z");
        expect(titles((await get("limit=100")).body)).toEqual(SAMPLE_TITLES.slice(5));
      } finally {
        clock.set("2026-07-25T12:00:00Z");
      }
    });

    it.each([
      ["from=2025-12-01&to=2025-12-31", SAMPLE_TITLES.slice(17, 20)],
      ["from=2025-12-16&to=2025-12-16", ["The Employment Situation - November 2025"]],
      ["from=2025-12-16T12:51:00Z&to=2025-12-18T13:00:00Z", ["The Employment Situation - November 2025"]],
      ["from=2025-12-16T07:52:00-05:00&to=2025-12-31", ["Real Earnings - November 2025"]],
      ["from=2026-06-01", SAMPLE_TITLES.slice(0, ECB_ITEMS)],
      ["from=2026-06-24", SAMPLE_TITLES.slice(0, 2)],
      ["to=2025-12-31", SAMPLE_TITLES.slice(17)],
    ])("%s", async (query, expected) => {
      const { status, body } = await get(query);
      expect(status).toBe(200);
      expect(titles(body)).toEqual(expected);
    });

    it.each([
      "from=2026-01-01&to=2025-12-01",
      "from=2025-12-01T00:00:00",
      "from=yesterday",
      "to=2025-02-30",
      "from=2015-01-01&to=2026-01-01",
    ])("refuses %s", async (query) => {
      await refuse(query);
    });
  });

  describe("filters", () => {
    it.each([
      ["source=ecb-press-feed", SAMPLE_TITLES.slice(0, ECB_ITEMS)],
      ["source=bls-news-feed,ecb-press-feed&limit=100", SAMPLE_TITLES],
      ["source=eu-stats-release-calendar", []],
      [
        "releaseFamily=bls-consumer-price-index",
        ["Consumer Price Index - February 2026", "Consumer Price Index - September 2025"],
      ],
      // The recorded ECB feed of 24 June holds no decision notice (the 11 June one had rolled off): only the BLS release matches.
      ["releaseFamily=ecb-monetary-policy-decision,bls-real-earnings", ["Real Earnings - November 2025"]],
      [
        "releaseFamily=bls-consumer-price-index,bls-real-earnings",
        [
          "Consumer Price Index - February 2026",
          "Real Earnings - November 2025",
          "Consumer Price Index - September 2025",
        ],
      ],
      ["series=us-cpi-all-items-sa", ["Consumer Price Index - February 2026", "Consumer Price Index - September 2025"]],
      ["series=ecb-deposit-facility-rate", []],
      ["series=us-average-hourly-earnings-total-private", ["The Employment Situation - November 2025"]],
      [
        "series=us-unemployment-rate,us-cpi-all-items-nsa",
        [
          "Consumer Price Index - February 2026",
          "The Employment Situation - November 2025",
          "Consumer Price Index - September 2025",
        ],
      ],
      [
        "country=us",
        [
          "Consumer Price Index - February 2026",
          "Real Earnings - November 2025",
          "The Employment Situation - November 2025",
          "Consumer Price Index - September 2025",
        ],
      ],
      ["country=DE", []],
      ["topic=PRICES", ["Consumer Price Index - February 2026", "Consumer Price Index - September 2025"]],
      ["topic=monetary_policy", []],
      ["topic=labour", ["The Employment Situation - November 2025"]],
      [
        "source=bls-news-feed&linkStatus=LINKED&topic=prices",
        ["Consumer Price Index - February 2026", "Consumer Price Index - September 2025"],
      ],
    ])("%s", async (query, expected) => {
      const { status, body } = await get(query);
      expect(status).toBe(200);
      expect(titles(body)).toEqual(expected);
    });

    it("matches a filtered announcement on the field it filters", async () => {
      for (const event of (await get("source=ecb-press-feed")).body.data.events)
        expect(event.source).toBe("ecb-press-feed");
      for (const event of (await get("releaseFamily=bls-consumer-price-index")).body.data.events)
        expect(event.links.releaseFamily.slug).toBe("bls-consumer-price-index");
      const withSeries = (await get("series=us-cpi-all-items-sa,us-unemployment-rate")).body.data.events;
      expect(withSeries).toHaveLength(3);
      for (const event of withSeries) {
        const slugs: string[] = event.links.series.map((series: { slug: string }) => series.slug);
        expect(slugs.includes("us-cpi-all-items-sa") || slugs.includes("us-unemployment-rate"), event.title).toBe(true);
      }
    });

    it.each([
      "source",
      "releaseFamily",
      "series",
      "country",
      "topic",
    ])("refuses more than 10 values of %s", async (name) => {
      await refuse(`${name}=${Array.from({ length: 11 }, (_, n) => `v${n}`).join(",")}`);
    });
  });

  describe("closed enumerations", () => {
    it.each([
      ["state=NEW&limit=100", SAMPLE_TITLES],
      ["state=new&limit=100", SAMPLE_TITLES],
      ["state=UPDATED,WITHDRAWN", []],
      ["linkStatus=LINKED", SAMPLE_TITLES.filter((_, n) => [15, 17, 18, 20].includes(n))],
      ["linkStatus=ambiguous", ["Consumer Price Index and Real Earnings - December 2025"]],
      ["linkStatus=UNLINKED", [...SAMPLE_TITLES.slice(0, ECB_ITEMS), SAMPLE_TITLES[19]]],
      ["linkStatus=LINKED,AMBIGUOUS,UNLINKED&limit=100", SAMPLE_TITLES],
      ["type=RELEASE", SAMPLE_TITLES.slice(ECB_ITEMS)],
      ["type=MONETARY_POLICY_DECISION", []],
      // Typed by the page's path: /press/key/ speeches (three of them link a PDF), /press/pr/ press releases, /press/govcdec/ other.
      ["type=speech", SAMPLE_TITLES.filter((_, n) => [2, 3, 4, 5, 6, 8, 10, 12].includes(n))],
      ["type=PRESS_RELEASE", SAMPLE_TITLES.filter((_, n) => [0, 1, 7, 9, 11, 14].includes(n))],
      [
        "type=OTHER",
        ["Decisions taken by the Governing Council of the ECB (in addition to decisions setting interest rates)"],
      ],
    ])("%s", async (query, expected) => {
      const { status, body } = await get(query);
      expect(status).toBe(200);
      expect(titles(body)).toEqual(expected);
    });

    it.each([
      "state=DELETED",
      "state=NEW,GONE",
      "linkStatus=PARTIAL",
      "type=BLOG",
      "type=RELEASE,INTERVIEW",
    ])("refuses an unknown value: %s", async (query) => {
      await refuse(query);
    });
  });
});
