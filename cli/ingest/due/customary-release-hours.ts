import type { Publisher } from "../../../schemas/vocabularies.ts";

/**
 * When a release that its calendar dates without a time is asked for (`service ingest --due`): from this hour on its
 * date, in the publisher's zone. Only the asking starts then: the event itself keeps `scheduledAt: null` and no
 * record, answer or log line presents this hour as the event's time.
 */
interface CustomaryHour {
  /** `HH:mm` on the event's date. */
  time: string;
  /** IANA zone the publisher announces and releases in. */
  zone: string;
  /** Where the hour comes from, for the operator reading docs/operations.md. */
  basis: string;
}

/** One hour per publisher (docs/operations.md, "Release-time ingestion"). */
const CUSTOMARY_RELEASE_HOURS: Record<Publisher, CustomaryHour> = {
  // BLS's schedule states a time for each release; 08:30 Eastern is the hour most of them come at.
  BLS: { time: "08:30", zone: "America/New_York", basis: "BLS releases its principal indicators at 8:30 a.m. ET" },
  // Euro indicators come at 11:00 Luxembourg time; the calendar's date-only records are mostly these.
  EUROSTAT: { time: "11:00", zone: "Europe/Luxembourg", basis: "Eurostat releases euro indicators at 11:00 CET" },
  // The ECB's statistical press releases (monetary developments, balance of payments) come at 10:00 Frankfurt time.
  ECB: { time: "10:00", zone: "Europe/Berlin", basis: "the ECB publishes its statistical releases at 10:00 CET" },
};

/** Releases whose customary hour is not their publisher's. */
const RELEASE_HOUR_OVERRIDES: Record<string, CustomaryHour> = {
  // The meeting calendar dates the decision without a time; the press release comes at 14:15 Frankfurt time.
  "ecb-monetary-policy-decision": {
    time: "14:15",
    zone: "Europe/Berlin",
    basis: "the ECB announces its monetary policy decisions at 14:15 CET",
  },
};

export function customaryHourOf(releaseSlug: string, publisher: Publisher): CustomaryHour {
  return RELEASE_HOUR_OVERRIDES[releaseSlug] ?? CUSTOMARY_RELEASE_HOURS[publisher];
}
