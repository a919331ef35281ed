import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import type { Release } from "../../schemas/registry.ts";
import { ECB_ITEMS, SAMPLE_TITLES } from "./news-route-fixtures.ts";
import {
  archiveWith,
  CONSTRUCTED_ECB_DECISIONS,
  type IndexNewsRow,
  indexNews,
  ingest,
  removeTempDirs,
  rssFeed,
  sampleDataDir,
  storeRows,
  tempDir,
} from "./news-support.ts";

/** Announcements linked by a real ingestion, on the sample archive's calendars (the rules themselves: linking.test.ts). */

afterAll(removeTempDirs);

const registry = readRegistrySources(new Date("2026-07-24T00:00:00Z"));
const release = (slug: string): Release => registry.releases.find((candidate) => candidate.slug === slug)!;

const CPI = "bls-consumer-price-index";

describe("on the real calendar events of the sample archive", () => {
  let dataDir: string;
  let news: IndexNewsRow[];
  const eventOf = (id: string) =>
    storeRows<{
      id: string;
      release_slug: string;
      title: string;
      scheduled_date: string;
      scheduled_at: string | null;
      source_timezone: string;
      reference_period: string | null;
    }>(dataDir, "SELECT * FROM events WHERE id = ?", id)[0]!;
  const byTitle = (title: string, publishedAt?: string) => {
    const rows = news.filter(
      (row) => row.record.title === title && (publishedAt === undefined || row.published_at === publishedAt),
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };

  beforeAll(async () => {
    dataDir = await sampleDataDir("2026-07-24T06:00:00Z");
    news = indexNews(dataDir).filter((row) => row.source === "bls-news-feed" || row.source === "ecb-press-feed");
  });

  it('links the CPI "September 2025" notice to the CPI event of 2025-10-24 12:30Z, with its evidence', () => {
    const row = byTitle("Consumer Price Index - September 2025");
    expect(row.link_status).toBe("LINKED");
    const link = row.record.links.calendarEvent;
    const event = eventOf(link.eventId);
    expect(event).toMatchObject({
      release_slug: CPI,
      scheduled_date: "2025-10-24",
      scheduled_at: "2025-10-24T12:30:00.000Z",
      title: "Consumer Price Index",
    });
    expect(link.evidence).toEqual([
      { rule: "RELEASE_NAME", detail: "title matches release bls-consumer-price-index" },
      {
        rule: "PUBLICATION_TIME_IN_SCHEDULED_WINDOW",
        detail: "published 2025-10-24T12:30:00.000Z, scheduled 2025-10-24T12:30:00.000Z",
      },
    ]);
    // The BLS calendar states no reference period, so the title's period is neither checked nor claimed.
    expect(event.reference_period).toBeNull();
    expect(row.record.links.releaseFamily).toMatchObject({ slug: CPI, linkStatus: "LINKED" });
    expect(row.record.links.series.map((series: { slug: string }) => series.slug)).toEqual(release(CPI).seriesSlugs);
  });

  it('keeps "Consumer Price Index and Real Earnings" AMBIGUOUS although both releases have an event that day', () => {
    const row = byTitle("Consumer Price Index and Real Earnings - December 2025");
    expect(row.link_status).toBe("AMBIGUOUS");
    expect(row.record.links.calendarEvent).toBeNull();
    expect(row.release_slug).toBeNull();
    const sameDay = storeRows<{ release_slug: string }>(
      dataDir,
      "SELECT release_slug FROM events WHERE scheduled_at = '2026-01-13T13:30:00.000Z' ORDER BY release_slug",
    );
    expect(sameDay.map((event) => event.release_slug)).toEqual([CPI, "bls-real-earnings"]);
  });

  it("leaves the ECEC notice UNLINKED: no registered release has that name", () => {
    const row = byTitle("Employer Costs for Employee Compensation - September 2025");
    expect(row.link_status).toBe("UNLINKED");
    expect(row.record.links).toEqual({ calendarEvent: null, releaseFamily: null, series: [] });
  });

  it("leaves every item of the real ECB press feed recording UNLINKED: none names a registered release", () => {
    const ecb = news.filter((row) => row.source === "ecb-press-feed");
    expect(ecb.map((row) => row.record.title)).toEqual(SAMPLE_TITLES.slice(0, ECB_ITEMS));
    for (const row of ecb) {
      expect(row.link_status, row.record.title).toBe("UNLINKED");
      expect(row.record.links).toEqual({ calendarEvent: null, releaseFamily: null, series: [] });
    }
  });

  it("measured on the whole sample: 4 linked, each to the right event, 1 ambiguous, 16 unlinked", () => {
    const table = news.map((row) => {
      const event =
        row.record.links.calendarEvent && row.link_status === "LINKED"
          ? eventOf(row.record.links.calendarEvent.eventId)
          : null;
      return [
        row.record.title,
        row.link_status,
        event ? `${event.release_slug} ${event.scheduled_at ?? event.scheduled_date}` : null,
      ];
    });
    // Checked by hand against data/samples: bls-schedule-2025-2026.ics (DTSTART 08:30 US-Eastern on each date) and
    // ecb-press-rss-2026-06-24.xml (no item names a release of the registry).
    expect(table).toEqual([
      ...SAMPLE_TITLES.slice(0, ECB_ITEMS).map((title) => [title, "UNLINKED", null]),
      ["Consumer Price Index - February 2026", "LINKED", "bls-consumer-price-index 2026-03-11T12:30:00.000Z"],
      ["Consumer Price Index and Real Earnings - December 2025", "AMBIGUOUS", null],
      ["Real Earnings - November 2025", "LINKED", "bls-real-earnings 2025-12-18T13:30:00.000Z"],
      ["The Employment Situation - November 2025", "LINKED", "bls-employment-situation 2025-12-16T13:30:00.000Z"],
      ["Employer Costs for Employee Compensation - September 2025", "UNLINKED", null],
      ["Consumer Price Index - September 2025", "LINKED", "bls-consumer-price-index 2025-10-24T12:30:00.000Z"],
    ]);
  });
});

describe("ECB decision notices on the sample's meetings calendar (the feed is CONSTRUCTED here, see CONSTRUCTED_ECB_DECISIONS)", () => {
  let dataDir: string;
  let decisions: IndexNewsRow[];
  const eventOf = (id: string) =>
    storeRows<{
      release_slug: string;
      title: string;
      scheduled_date: string;
      scheduled_at: string | null;
      source_timezone: string;
    }>(dataDir, "SELECT * FROM events WHERE id = ?", id)[0]!;

  beforeAll(async () => {
    dataDir = tempDir("ecb-decisions");
    const archive = archiveWith({
      "ecb-press-feed": { "ecb-press-constructed.xml": rssFeed(CONSTRUCTED_ECB_DECISIONS) },
    });
    const summary = await ingest(dataDir, archive, "2026-07-24T06:00:00Z", [
      "central-bank-meetings-calendar",
      "central-bank-statistics-calendar",
      "ecb-press-feed",
    ]);
    expect(summary.outcome).toBe("succeeded");
    decisions = indexNews(dataDir);
  });

  it("links the two decisions to the meetings' Day 2 events of 2026-07-23 and 2026-06-11, typed as decisions", () => {
    expect(decisions.map((row) => [row.record.title, row.link_status, row.type, row.topic])).toEqual([
      ["Monetary policy decisions", "LINKED", "MONETARY_POLICY_DECISION", "monetary_policy"],
      ["Monetary policy decisions", "LINKED", "MONETARY_POLICY_DECISION", "monetary_policy"],
    ]);
    const events = decisions.map((row) => eventOf(row.record.links.calendarEvent.eventId));
    expect(
      events.map((event) => [event.release_slug, event.scheduled_date, event.scheduled_at, event.source_timezone]),
    ).toEqual([
      ["ecb-monetary-policy-decision", "2026-07-23", null, "Europe/Berlin"],
      ["ecb-monetary-policy-decision", "2026-06-11", null, "Europe/Berlin"],
    ]);
    for (const event of events) expect(event.title).toMatch(/monetary policy meeting .*\(Day 2\)/);
    for (const row of decisions) {
      expect(row.record.links.calendarEvent.evidence.map((item: { rule: string }) => item.rule)).toEqual([
        "RELEASE_NAME",
        "PUBLICATION_TIME_IN_SCHEDULED_WINDOW",
      ]);
      expect(row.record.links.series.map((series: { slug: string }) => series.slug)).toEqual(
        release("ecb-monetary-policy-decision").seriesSlugs,
      );
    }
  });
});
