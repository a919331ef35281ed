import { describe, expect, it } from "vitest";
import {
  type CandidateEvent,
  linkAnnouncement,
  periodInTitle,
  WINDOW_AFTER_HOURS,
  WINDOW_BEFORE_HOURS,
} from "../../cli/ingest/link-announcement.ts";
import type { SourceAnnouncement } from "../../cli/ingest/records.ts";
import { createNewsReleaseMatcher } from "../../cli/ingest/release-matching.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import type { Release } from "../../schemas/registry.ts";

const registry = readRegistrySources(new Date("2026-07-24T00:00:00Z"));
const matchReleases = createNewsReleaseMatcher(registry);
const release = (slug: string): Release => registry.releases.find((candidate) => candidate.slug === slug)!;

function notice(
  title: string,
  publishedAt: string,
  source: SourceAnnouncement["source"] = "bls-news-feed",
): SourceAnnouncement {
  return {
    source,
    sourceItemId: `id:${title}:${publishedAt}`,
    title,
    url: "https://www.bls.gov/news.release/x.htm",
    publishedAt,
    updatedAt: null,
  };
}

function timed(id: string, scheduledAt: string, referencePeriodCode: string | null = null): CandidateEvent {
  return {
    id,
    scheduledDate: scheduledAt.slice(0, 10),
    scheduledAt,
    sourceTimezone: "America/New_York",
    referencePeriodCode,
  };
}

/** Links a title against the registry's releases and the given events of each release. */
function link(
  item: SourceAnnouncement,
  events: Record<string, CandidateEvent[]>,
  values: Record<string, string | null> = {},
) {
  const asked: string[] = [];
  const result = linkAnnouncement(
    item,
    matchReleases(item.title),
    (slug) => events[slug] ?? [],
    (series, period) => {
      asked.push(`${series} ${period}`);
      return values[`${series} ${period}`];
    },
  );
  return { ...result, asked };
}

const CPI = "bls-consumer-price-index";
const CPI_SEP = timed("evt_cpi_sep", "2025-10-24T12:30:00.000Z");
const at = (base: string, ms: number) => new Date(Date.parse(base) + ms).toISOString();
const HOUR = 3_600_000;

describe("release by name", () => {
  it("matches one release per title; a title naming two releases matches both", () => {
    expect(matchReleases("Consumer Price Index - September 2025").map((found) => found.slug)).toEqual([CPI]);
    expect(matchReleases("The Employment Situation - November 2025").map((found) => found.slug)).toEqual([
      "bls-employment-situation",
    ]);
    expect(matchReleases("Employment Situation of Veterans - 2025")).toEqual([]);
    expect(
      matchReleases("Consumer Price Index and Real Earnings - December 2025")
        .map((found) => found.slug)
        .sort(),
    ).toEqual([CPI, "bls-real-earnings"]);
    expect(matchReleases("Monetary policy decisions").map((found) => found.slug)).toEqual([
      "ecb-monetary-policy-decision",
    ]);
    expect(matchReleases("Employer Costs for Employee Compensation - September 2025")).toEqual([]);
  });

  it("a title naming two releases is AMBIGUOUS, with no event and no series", () => {
    const result = link(notice("Consumer Price Index and Real Earnings - December 2025", "2026-01-13T13:30:00.000Z"), {
      [CPI]: [timed("evt_cpi", "2026-01-13T13:30:00.000Z")],
      "bls-real-earnings": [timed("evt_re", "2026-01-13T13:30:00.000Z")],
    });
    expect(result.linkStatus).toBe("AMBIGUOUS");
    expect(result.calendarEvent).toBeNull();
    expect(result.series).toEqual([]);
    expect(result.releaseFamily!.linkStatus).toBe("AMBIGUOUS");
    expect(result.releaseFamily!.evidence).toEqual([
      {
        rule: "RELEASE_NAME",
        detail: expect.stringMatching(
          /2 releases.*bls-consumer-price-index.*bls-real-earnings|2 releases.*bls-real-earnings.*bls-consumer-price-index/,
        ),
      },
    ]);
  });

  it("a title naming no registered release is UNLINKED with no release", () => {
    const result = link(
      notice("Employer Costs for Employee Compensation - September 2025", "2025-12-12T15:00:00.000Z"),
      {},
    );
    expect(result).toMatchObject({ linkStatus: "UNLINKED", calendarEvent: null, releaseFamily: null, series: [] });
  });
});

describe("publication time within the scheduled window", () => {
  it("states the window as 2 h before and 12 h after", () => {
    expect([WINDOW_BEFORE_HOURS, WINDOW_AFTER_HOURS]).toEqual([2, 12]);
  });

  it.each([
    ["at the scheduled time", 0, "LINKED"],
    ["exactly 2 h before", -2 * HOUR, "LINKED"],
    ["one second more than 2 h before", -2 * HOUR - 1000, "UNLINKED"],
    ["exactly 12 h after", 12 * HOUR, "LINKED"],
    ["one second more than 12 h after", 12 * HOUR + 1000, "UNLINKED"],
    ["39 min early, like BLS feed times", -39 * 60_000, "LINKED"],
  ])("a notice %s (offset %i ms) is %s", (_, offset, status) => {
    const result = link(notice("Consumer Price Index - September 2025", at(CPI_SEP.scheduledAt!, offset)), {
      [CPI]: [CPI_SEP],
    });
    expect(result.linkStatus).toBe(status);
    expect(result.calendarEvent?.eventId ?? null).toBe(status === "LINKED" ? "evt_cpi_sep" : null);
    // The release is named either way; only the event needs the window.
    expect(result.releaseFamily).toMatchObject({ slug: CPI, linkStatus: "LINKED" });
  });

  it("links with the rules that matched, each as evidence", () => {
    const result = link(notice("Consumer Price Index - September 2025", "2025-10-24T12:30:00.000Z"), {
      [CPI]: [CPI_SEP],
    });
    expect(result.calendarEvent).toEqual({
      eventId: "evt_cpi_sep",
      linkStatus: "LINKED",
      evidence: [
        { rule: "RELEASE_NAME", detail: "title matches release bls-consumer-price-index" },
        {
          rule: "PUBLICATION_TIME_IN_SCHEDULED_WINDOW",
          detail: "published 2025-10-24T12:30:00.000Z, scheduled 2025-10-24T12:30:00.000Z",
        },
      ],
    });
  });

  describe("a date-only event is matched on its date in the source's zone, not in UTC", () => {
    const meeting: CandidateEvent = {
      id: "evt_ecb_0611",
      scheduledDate: "2026-06-11",
      scheduledAt: null,
      sourceTimezone: "Europe/Berlin",
      referencePeriodCode: null,
    };
    const decide = (publishedAt: string) =>
      link(notice("Monetary policy decisions", publishedAt, "ecb-press-feed"), {
        "ecb-monetary-policy-decision": [meeting],
      });

    it.each([
      ["14:15 Frankfurt time on the day", "2026-06-11T12:15:00.000Z", "LINKED"],
      ["00:30 Frankfurt time on the day, still the 10th in UTC", "2026-06-10T22:30:00.000Z", "LINKED"],
      ["23:59 Frankfurt time the day before", "2026-06-10T21:59:00.000Z", "UNLINKED"],
      ["00:30 Frankfurt time the day after, still the 11th in UTC", "2026-06-11T22:30:00.000Z", "UNLINKED"],
    ])("%s: %s", (_, publishedAt, status) => {
      expect(decide(publishedAt).linkStatus).toBe(status);
    });

    it("states the date and zone it matched in the evidence", () => {
      expect(decide("2026-06-11T12:15:00.000Z").calendarEvent!.evidence[1]).toEqual({
        rule: "PUBLICATION_TIME_IN_SCHEDULED_WINDOW",
        detail: "published 2026-06-11T12:15:00.000Z, scheduled 2026-06-11 (Europe/Berlin)",
      });
    });
  });
});

describe("reference period in the title", () => {
  it.each([
    ["Consumer Price Index - September 2025", "2025-09"],
    ["consumer price index - SEPTEMBER 2025", "2025-09"],
    ["Employment Cost Index - Third Quarter 2025", "2025-Q3"],
    ["Productivity and Costs - First Quarter 2026", "2026-Q1"],
    ["ECB publishes supervisory banking statistics for the first quarter of 2026", "2026-Q1"],
    ["Consumer Price Index - July 2025 and August 2025", null],
    ["Monetary policy decisions", null],
    ["Consumer Price Index - 2025", null],
  ])("%s names %s", (title, period) => {
    expect(periodInTitle(title)).toBe(period);
  });

  it("confirms the event's own period with REFERENCE_PERIOD_IN_TITLE evidence", () => {
    const result = link(notice("Consumer Price Index - September 2025", "2025-10-24T12:30:00.000Z"), {
      [CPI]: [{ ...CPI_SEP, referencePeriodCode: "2025-09" }],
    });
    expect(result.linkStatus).toBe("LINKED");
    expect(result.calendarEvent!.evidence.map((item) => item.rule)).toEqual([
      "RELEASE_NAME",
      "PUBLICATION_TIME_IN_SCHEDULED_WINDOW",
      "REFERENCE_PERIOD_IN_TITLE",
    ]);
    expect(result.calendarEvent!.evidence[2]!.detail).toContain("2025-09");
  });

  it("a period that contradicts the event's period leaves the notice UNLINKED, even on time", () => {
    const result = link(notice("Consumer Price Index - August 2025", "2025-10-24T12:30:00.000Z"), {
      [CPI]: [{ ...CPI_SEP, referencePeriodCode: "2025-09" }],
    });
    expect(result.linkStatus).toBe("UNLINKED");
    expect(result.calendarEvent).toBeNull();
  });

  it("an event that states no period is not contradicted, and no period evidence is claimed", () => {
    const result = link(notice("Consumer Price Index - August 2025", "2025-10-24T12:30:00.000Z"), { [CPI]: [CPI_SEP] });
    expect(result.linkStatus).toBe("LINKED");
    expect(result.calendarEvent!.evidence.map((item) => item.rule)).not.toContain("REFERENCE_PERIOD_IN_TITLE");
  });

  it("the period picks the one event among two in the window", () => {
    const events = {
      [CPI]: [
        timed("evt_aug", "2025-10-24T12:30:00.000Z", "2025-08"),
        timed("evt_sep", "2025-10-24T14:00:00.000Z", "2025-09"),
      ],
    };
    const result = link(notice("Consumer Price Index - September 2025", "2025-10-24T12:30:00.000Z"), events);
    expect(result.linkStatus).toBe("LINKED");
    expect(result.calendarEvent!.eventId).toBe("evt_sep");
  });
});

describe("two candidate events", () => {
  it("are AMBIGUOUS, the evidence naming both", () => {
    const events = { [CPI]: [timed("evt_a", "2025-10-24T12:30:00.000Z"), timed("evt_b", "2025-10-24T14:00:00.000Z")] };
    const result = link(notice("Consumer Price Index - September 2025", "2025-10-24T12:30:00.000Z"), events);
    expect(result.linkStatus).toBe("AMBIGUOUS");
    expect(result.calendarEvent!.linkStatus).toBe("AMBIGUOUS");
    const detail = result.calendarEvent!.evidence.map((item) => item.detail).join(" ");
    expect(detail).toContain("evt_a");
    expect(detail).toContain("evt_b");
  });

  it("an event outside the window is no candidate", () => {
    const events = { [CPI]: [timed("evt_a", "2025-10-24T12:30:00.000Z"), timed("evt_b", "2025-10-25T12:30:00.000Z")] };
    expect(
      link(notice("Consumer Price Index - September 2025", "2025-10-24T12:30:00.000Z"), events).calendarEvent!.eventId,
    ).toBe("evt_a");
  });
});

describe("series follow from the release", () => {
  it("every series the release publishes, with the title's period value where one is stored", () => {
    const values = { "us-cpi-all-items-sa 2025-09": "324.368", "us-cpi-all-items-nsa 2025-09": null };
    const result = link(
      notice("Consumer Price Index - September 2025", "2025-10-24T12:30:00.000Z"),
      { [CPI]: [CPI_SEP] },
      values,
    );
    expect(result.series.map((series) => [series.slug, series.linkStatus, series.value])).toEqual([
      ["us-cpi-all-items-sa", "LINKED", { referencePeriod: "2025-09", value: "324.368" }],
      ["us-cpi-all-items-nsa", "LINKED", { referencePeriod: "2025-09", value: null }],
      ["us-cpi-all-items-12-month-change", "LINKED", null],
      ["us-cpi-all-items-1-month-change-sa", "LINKED", null],
    ]);
    expect(result.series[0]!.evidence.map((item) => item.rule)).toEqual(["RELEASE_NAME", "RELEASE_PUBLISHES_SERIES"]);
  });

  it("a title with no period asks for no value", () => {
    const result = link(notice("Monetary policy decisions", "2026-06-11T12:15:00.000Z", "ecb-press-feed"), {});
    expect(result.asked).toEqual([]);
    expect(result.series.map((series) => series.slug)).toEqual(release("ecb-monetary-policy-decision").seriesSlugs);
    expect(result.series.every((series) => series.value === null)).toBe(true);
  });
});
