import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyAnnouncements } from "../../cli/ingest/apply-announcements.ts";
import { openStore, type StoredEvent } from "../../cli/ingest/ledger/store.ts";
import type { SourceAnnouncement } from "../../cli/ingest/records.ts";
import { createNewsReleaseMatcher } from "../../cli/ingest/release-matching.ts";
import type { IngestSummary } from "../../cli/ingest/run-ingestion.ts";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { publishIndex } from "../support/compiled-ingestion.ts";
import {
  archiveWith,
  CONSTRUCTED_ECB_DECISIONS,
  indexEvents,
  indexNews,
  ingest,
  removeTempDirs,
  rssFeed,
  SAMPLES_DIR,
  storeRows,
  tempDir,
} from "./news-support.ts";

afterAll(removeTempDirs);

/** "An announcement linked to an event is evidence of publication for it ... nothing else ever turns it true." */

const RUN_AT = "2026-07-24T06:00:00.000Z";
const NON_NEWS = SOURCES.filter((source) => source.kind !== "news").map((source) => source.slug);

/** The linked notices of the sample feeds, as checked by hand in linking.test.ts (the recorded ECB feed links none). */
const LINKED_NOTICES = [
  {
    title: "Consumer Price Index - September 2025",
    publishedAt: "2025-10-24T12:30:00.000Z",
    url: "https://www.bls.gov/news.release/archives/cpi_10242025.htm",
  },
  {
    title: "The Employment Situation - November 2025",
    publishedAt: "2025-12-16T12:51:00.000Z",
    url: "https://www.bls.gov/news.release/archives/empsit_12162025.htm",
  },
  {
    title: "Real Earnings - November 2025",
    publishedAt: "2025-12-18T13:30:00.000Z",
    url: "https://www.bls.gov/news.release/archives/realer_12182025.htm",
  },
  {
    title: "Consumer Price Index - February 2026",
    publishedAt: "2026-03-11T12:30:00.000Z",
    url: "https://www.bls.gov/news.release/archives/cpi_03112026.htm",
  },
];

describe("confirmation by the publisher's notice, on the sample archive", () => {
  let withNotices: string;
  let withoutNotices: string;
  let first: IngestSummary;
  let again: IngestSummary;
  let events: Map<string, any>;
  let linkedEventIds: Map<string, string>;
  const eventAt = (release: string, when: string) => {
    const found = [...events.values()].filter(
      (event) => event.release.slug === release && (event.scheduledAt ?? event.scheduledDate) === when,
    );
    expect(found, `${release} ${when}`).toHaveLength(1);
    return found[0]!;
  };

  beforeAll(async () => {
    withoutNotices = tempDir("no-notices");
    const calendarsOnly = await ingest(withoutNotices, SAMPLES_DIR, RUN_AT, NON_NEWS);
    expect(calendarsOnly.outcome).toBe("succeeded");
    withNotices = tempDir("notices");
    first = await ingest(withNotices, SAMPLES_DIR, RUN_AT);
    expect(first.outcome).toBe("succeeded");
    events = indexEvents(withNotices);
    linkedEventIds = new Map(
      indexNews(withNotices)
        .filter((row) => row.link_status === "LINKED")
        .map((row) => [row.record.publishedAt as string, row.record.links.calendarEvent.eventId as string]),
    );
  });

  it("confirms each linked event with the notice as PUBLISHER_NOTICE evidence, releasedAt = the time the notice states", () => {
    expect(linkedEventIds.size).toBe(LINKED_NOTICES.length);
    for (const notice of LINKED_NOTICES) {
      const event = events.get(linkedEventIds.get(notice.publishedAt)!)!;
      expect(event.publication, notice.title).toEqual({
        releasedAt: notice.publishedAt,
        detectedAt: RUN_AT,
        confirmed: true,
        evidence: [{ kind: "PUBLISHER_NOTICE", observedAt: RUN_AT, detail: notice.title, url: notice.url }],
        officialPublication: { url: notice.url },
      });
    }
  });

  it("the notice is what confirms them: without the feeds the same events stay unconfirmed", () => {
    const before = indexEvents(withoutNotices);
    for (const id of linkedEventIds.values()) {
      expect(before.get(id)!.publication, id).toEqual({
        releasedAt: null,
        detectedAt: null,
        confirmed: false,
        evidence: [],
        officialPublication: null,
      });
    }
  });

  it("the early-dated Employment Situation notice (12:51Z for a 13:30Z release) gives the time the publisher states, not an inferred one", () => {
    const event = eventAt("bls-employment-situation", "2025-12-16T13:30:00.000Z");
    expect(event.publication.confirmed).toBe(true);
    expect(event.publication.releasedAt).toBe("2025-12-16T12:51:00.000Z");
    expect(event.scheduledAt).toBe("2025-12-16T13:30:00.000Z");
  });

  it("a date-only event (the ECB decision) takes the notice's own time (decision notices CONSTRUCTED: none is recorded)", async () => {
    const dir = tempDir("ecb-decision");
    const archive = archiveWith({
      "ecb-press-feed": { "ecb-press-constructed.xml": rssFeed(CONSTRUCTED_ECB_DECISIONS) },
    });
    expect((await ingest(dir, archive, RUN_AT, ["central-bank-meetings-calendar", "ecb-press-feed"])).outcome).toBe(
      "succeeded",
    );
    const decided = [...indexEvents(dir).values()]
      .filter((event) => event.publication.confirmed)
      .sort((a, b) => a.scheduledDate.localeCompare(b.scheduledDate));
    expect(
      decided.map((event) => [
        event.release.slug,
        event.scheduledDate,
        event.scheduledAt,
        event.publication.releasedAt,
      ]),
    ).toEqual([
      ["ecb-monetary-policy-decision", "2026-06-11", null, "2026-06-11T12:15:00.000Z"],
      ["ecb-monetary-policy-decision", "2026-07-23", null, "2026-07-23T12:15:00.000Z"],
    ]);
    // In the sample archive itself no notice names these decisions, so nothing confirms them.
    expect(eventAt("ecb-monetary-policy-decision", "2026-07-23").publication.confirmed).toBe(false);
  });

  it("confirms nothing else: every confirmed event is one a notice linked, or one a value confirms", () => {
    // The values confirm the August 2026 jobs report, CPI and PPI (documents fetched 24 August 2026, linked by value).
    const byValue = (event: any) =>
      event.publication.evidence.some((item: { kind: string }) => item.kind === "VERIFIED_VALUE");
    expect([...events.values()].filter(byValue).map((event) => event.scheduledDate)).toEqual([
      "2026-08-07",
      "2026-08-12",
      "2026-08-13",
    ]);
    const confirmed = [...events.values()]
      .filter((event) => event.publication.confirmed && !byValue(event))
      .map((event) => event.id)
      .sort();
    expect(confirmed).toEqual([...linkedEventIds.values()].sort());
    for (const event of events.values()) {
      if (event.publication.confirmed) expect(event.publication.evidence.length).toBeGreaterThan(0);
      else expect(event.publication).toMatchObject({ releasedAt: null, evidence: [], officialPublication: null });
    }
  });

  it("an event with no notice, value or source mark stays unconfirmed, even when past due", () => {
    for (const [release, when] of [
      ["ecb-monetary-policy-decision", "2024-12-12"],
      ["bls-employment-situation", "2026-01-09T13:30:00.000Z"],
      ["ecb-monetary-policy-decision", "2026-09-10"],
    ] as const) {
      expect(eventAt(release, when).publication.confirmed, `${release} ${when}`).toBe(false);
    }
  });

  it("an AMBIGUOUS notice (two releases in its title) confirms neither release's event", () => {
    expect(eventAt("bls-consumer-price-index", "2026-01-13T13:30:00.000Z").publication.confirmed).toBe(false);
    expect(eventAt("bls-real-earnings", "2026-01-13T13:30:00.000Z").publication.confirmed).toBe(false);
  });

  it("counts what each feed confirmed; a second run adds no second piece of the same evidence", async () => {
    const counts = (summary: IngestSummary, source: string) =>
      summary.sources.find((result) => result.source === source)!.counts;
    expect(counts(first, "bls-news-feed")).toMatchObject({
      received: 6,
      new: 6,
      linked: 4,
      ambiguous: 1,
      unlinked: 1,
      confirmed: 4,
    });
    expect(counts(first, "ecb-press-feed")).toMatchObject({
      received: 15,
      new: 15,
      linked: 0,
      ambiguous: 0,
      unlinked: 15,
      confirmed: 0,
      withdrawn: 0,
    });
    again = await ingest(withNotices, SAMPLES_DIR, "2026-07-24T12:00:00.000Z");
    expect(counts(again, "bls-news-feed")).toMatchObject({ received: 6, new: 0, linked: 4, confirmed: 0 });
    const rows = storeRows<{ n: number }>(
      withNotices,
      "SELECT count(*) AS n FROM evidence WHERE kind = 'PUBLISHER_NOTICE'",
    );
    expect(rows[0]!.n).toBe(4);
    const event = indexEvents(withNotices).get(linkedEventIds.get("2025-10-24T12:30:00.000Z")!)!;
    expect(event.publication.evidence).toHaveLength(1);
    expect(event.publication.detectedAt).toBe(RUN_AT);
  });
});

describe("notices that are not LINKED confirm nothing", () => {
  const registry = readRegistrySources(new Date(RUN_AT));
  const cpiEvent = (id: string, scheduledAt: string, period: string | null): StoredEvent => ({
    id,
    release_slug: "bls-consumer-price-index",
    title: "Consumer Price Index",
    scheduled_date: scheduledAt.slice(0, 10),
    scheduled_at: scheduledAt,
    time_precision: "EXACT_TIME",
    source_timezone: "America/New_York",
    reference_period: period ? JSON.stringify({ kind: "MONTH", code: period }) : null,
    status: "SCHEDULED",
    withdrawn_at: null,
    first_seen_at: RUN_AT,
    updated_at: RUN_AT,
  });
  const notice = (title: string, publishedAt: string, n: number): SourceAnnouncement => ({
    source: "bls-news-feed",
    sourceItemId: `https://www.bls.gov/news.release/archives/n${n}.htm`,
    title,
    url: `https://www.bls.gov/news.release/archives/n${n}.htm`,
    publishedAt,
    updatedAt: null,
  });

  it("AMBIGUOUS between two events, UNLINKED outside the window or against the event's period: no evidence, confirmed false", async () => {
    const dir = tempDir("direct");
    const store = openStore(join(dir, "store.sqlite"));
    try {
      store.insertEvent(cpiEvent("evt_twin_a", "2025-10-24T12:30:00.000Z", null));
      store.insertEvent(cpiEvent("evt_twin_b", "2025-10-24T14:00:00.000Z", null));
      store.insertEvent(cpiEvent("evt_nov", "2025-12-10T13:30:00.000Z", "2025-11"));
      const counts = applyAnnouncements(
        store,
        createNewsReleaseMatcher(registry),
        "bls-news-feed",
        {
          items: [
            notice("Consumer Price Index - September 2025", "2025-10-24T12:30:00.000Z", 1),
            notice("Consumer Price Index - November 2025", "2025-12-13T13:30:00.000Z", 2),
            notice("Consumer Price Index - October 2025", "2025-12-10T13:30:00.000Z", 3),
          ],
          skipped: [],
        },
        { runId: "run_direct", at: RUN_AT },
      );
      expect(counts).toMatchObject({ received: 3, linked: 0, ambiguous: 1, unlinked: 2, confirmed: 0 });
      expect(store.db.prepare("SELECT count(*) FROM evidence").pluck().get()).toBe(0);
      await publishIndex(store, registry, dir, {
        publishedAt: RUN_AT,
        lastIngestedAt: RUN_AT,
        lastSuccessfulIngestionAt: RUN_AT,
      });
    } finally {
      store.close();
    }
    const events = indexEvents(dir);
    for (const id of ["evt_twin_a", "evt_twin_b", "evt_nov"])
      expect(events.get(id)!.publication.confirmed, id).toBe(false);
    expect(
      indexNews(dir)
        .map((row) => row.link_status)
        .sort(),
    ).toEqual(["AMBIGUOUS", "UNLINKED", "UNLINKED"]);

    // The same notice on time and with the event's period does confirm, so the cases above failed for their stated reasons.
    const store2 = openStore(join(dir, "store.sqlite"));
    try {
      const counts = applyAnnouncements(
        store2,
        createNewsReleaseMatcher(registry),
        "bls-news-feed",
        { items: [notice("Consumer Price Index - November 2025", "2025-12-10T13:30:00.000Z", 4)], skipped: [] },
        { runId: "run_direct_2", at: RUN_AT },
      );
      expect(counts).toMatchObject({ linked: 1, confirmed: 1 });
    } finally {
      store2.close();
    }
  });
});
