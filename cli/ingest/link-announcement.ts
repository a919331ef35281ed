import { DateTime } from "luxon";
import type { Release } from "../../schemas/registry.ts";
import type { LINK_RULES, LINK_STATUSES } from "../../schemas/responses/news-status.ts";
import type { SourceAnnouncement } from "./records.ts";

type LinkStatus = (typeof LINK_STATUSES)[number];

interface LinkEvidence {
  rule: (typeof LINK_RULES)[number];
  detail: string;
}

export interface CandidateEvent {
  id: string;
  scheduledDate: string;
  scheduledAt: string | null;
  sourceTimezone: string;
  referencePeriodCode: string | null;
}

export interface AnnouncementLinks {
  linkStatus: LinkStatus;
  calendarEvent: { eventId: string; linkStatus: LinkStatus; evidence: LinkEvidence[] } | null;
  releaseFamily: { slug: string; linkStatus: LinkStatus; evidence: LinkEvidence[] } | null;
  series: {
    slug: string;
    linkStatus: LinkStatus;
    evidence: LinkEvidence[];
    value: { referencePeriod: string; value: string | null } | null;
  }[];
}

/** An announcement may appear up to this long before its scheduled time (BLS feeds date items minutes early) and this long after. */
export const WINDOW_BEFORE_HOURS = 2;
export const WINDOW_AFTER_HOURS = 12;

/**
 * Links an announcement to what it concerns, each link with the rules that matched:
 * 1. RELEASE_NAME: exactly one release's title patterns match the title (several: AMBIGUOUS, none: UNLINKED);
 * 2. PUBLICATION_TIME_IN_SCHEDULED_WINDOW: an event of that release is scheduled within the window of the publication
 *    time (a timed event) or on its date in the source zone (a date-only event);
 * 3. REFERENCE_PERIOD_IN_TITLE: a period read from the title must equal the event's, where the event states one;
 * exactly one such event is LINKED, several are AMBIGUOUS. Series links follow from the release.
 */
export function linkAnnouncement(
  item: SourceAnnouncement,
  releases: Release[],
  eventsOf: (releaseSlug: string) => CandidateEvent[],
  currentValue: (seriesSlug: string, period: string) => string | null | undefined,
): AnnouncementLinks {
  if (releases.length !== 1) {
    return {
      linkStatus: releases.length === 0 ? "UNLINKED" : "AMBIGUOUS",
      calendarEvent: null,
      releaseFamily:
        releases.length === 0
          ? null
          : {
              slug: releases[0]!.slug,
              linkStatus: "AMBIGUOUS",
              evidence: [
                {
                  rule: "RELEASE_NAME",
                  detail: `title matches ${releases.length} releases: ${releases.map((release) => release.slug).join(", ")}`,
                },
              ],
            },
      series: [],
    };
  }
  const release = releases[0]!;
  const nameEvidence: LinkEvidence = { rule: "RELEASE_NAME", detail: `title matches release ${release.slug}` };
  const period = periodInTitle(item.title);
  const published = DateTime.fromISO(item.publishedAt, { zone: "utc" });
  const candidates = eventsOf(release.slug).filter(
    (event) =>
      inWindow(event, published) &&
      (period === null || event.referencePeriodCode === null || event.referencePeriodCode === period),
  );
  const eventEvidence = (event: CandidateEvent): LinkEvidence[] => [
    nameEvidence,
    {
      rule: "PUBLICATION_TIME_IN_SCHEDULED_WINDOW",
      detail: `published ${item.publishedAt}, scheduled ${event.scheduledAt ?? `${event.scheduledDate} (${event.sourceTimezone})`}`,
    },
    ...(period !== null && event.referencePeriodCode === period
      ? [{ rule: "REFERENCE_PERIOD_IN_TITLE" as const, detail: `title names ${period}` }]
      : []),
  ];
  const calendarEvent =
    candidates.length === 1
      ? { eventId: candidates[0]!.id, linkStatus: "LINKED" as const, evidence: eventEvidence(candidates[0]!) }
      : candidates.length > 1
        ? {
            eventId: candidates[0]!.id,
            linkStatus: "AMBIGUOUS" as const,
            evidence: [
              nameEvidence,
              {
                rule: "PUBLICATION_TIME_IN_SCHEDULED_WINDOW" as const,
                detail: `${candidates.length} events of ${release.slug} fit: ${candidates.map((event) => event.id).join(", ")}`,
              },
            ],
          }
        : null;
  const series = release.seriesSlugs.map((slug) => {
    const value = period === null ? undefined : currentValue(slug, period);
    return {
      slug,
      linkStatus: "LINKED" as const,
      evidence: [
        nameEvidence,
        { rule: "RELEASE_PUBLISHES_SERIES" as const, detail: `${release.slug} publishes ${slug}` },
      ],
      value: period !== null && value !== undefined ? { referencePeriod: period, value } : null,
    };
  });
  return {
    linkStatus: calendarEvent?.linkStatus ?? "UNLINKED",
    calendarEvent,
    releaseFamily: { slug: release.slug, linkStatus: "LINKED", evidence: [nameEvidence] },
    series,
  };
}

function inWindow(event: CandidateEvent, published: DateTime): boolean {
  if (event.scheduledAt === null) return published.setZone(event.sourceTimezone).toISODate() === event.scheduledDate;
  const scheduled = DateTime.fromISO(event.scheduledAt, { zone: "utc" });
  return (
    published >= scheduled.minus({ hours: WINDOW_BEFORE_HOURS }) &&
    published <= scheduled.plus({ hours: WINDOW_AFTER_HOURS })
  );
}

const MONTH_IN_TITLE =
  /\b(January|February|March|April|May|June|July|August|September|October|November|December) (\d{4})\b/gi;
const QUARTER_IN_TITLE = /\b(First|Second|Third|Fourth) Quarter (?:of )?(\d{4})\b/gi;
const QUARTER_ORDINALS = ["first", "second", "third", "fourth"];

/**
 * The reference period a title names (`Consumer Price Index - September 2025` → `2025-09`, `… for the first quarter
 * of 2026` → `2026-Q1`), or null when it names none or several.
 */
export function periodInTitle(title: string): string | null {
  const found = new Set<string>();
  for (const [, month, year] of title.matchAll(MONTH_IN_TITLE)) {
    const parsed = DateTime.fromFormat(`${month} ${year}`, "MMMM yyyy", { locale: "en", zone: "utc" });
    if (parsed.isValid) found.add(parsed.toFormat("yyyy-MM"));
  }
  for (const [, ordinal, year] of title.matchAll(QUARTER_IN_TITLE))
    found.add(`${year}-Q${QUARTER_ORDINALS.indexOf(ordinal!.toLowerCase()) + 1}`);
  return found.size === 1 ? [...found][0]! : null;
}
