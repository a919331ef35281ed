import { dayBounds, isKnownZone } from "../../server/time/zone-clock.ts";

/**
 * Which vintage of a period a release produced (spec: an event's `values.actual` is what that release published,
 * later revisions are revisions). One clock for both sides: a vintage is recorded when the document carrying it was
 * fetched from the publisher (else when it was ingested), and a release happens at its scheduled time, or for a
 * date-only release at the start of its date in the publisher's zone.
 */

interface VintageTimes {
  sequence: number;
  document_sha256?: string | null;
  document_fetched_at: string | null;
  ingested_at: string;
}

/**
 * When a vintage was recorded, as a UTC instant: when its document was fetched; null when nothing records that (an old
 * recording replayed), which counts as earlier than every known time. A vintage kept without a document (recorded
 * before documents were) was recorded when ingested.
 */
export function vintageRecordedAt(vintage: VintageTimes): string | null {
  if (vintage.document_fetched_at !== null) return vintage.document_fetched_at;
  return vintage.document_sha256 ? null : vintage.ingested_at;
}

/**
 * When a release happens: its scheduled instant, else the start of its scheduled date in its zone (UTC instant; in UTC
 * for a zone this platform cannot compute). Day starts come from the zone clock the server uses, which computes each
 * zone and date once: luxon's zone arithmetic costs tens of microseconds a call, and 100,000 events share a few
 * thousand dates per zone.
 */
export function releaseStartsAt(event: {
  scheduled_at: string | null;
  scheduled_date: string;
  source_timezone: string;
}): string {
  if (event.scheduled_at !== null) return event.scheduled_at;
  const zone = isKnownZone(event.source_timezone) ? event.source_timezone : "UTC";
  return new Date(dayBounds(event.scheduled_date, zone).start).toISOString();
}

/**
 * The vintage a release produced: the first vintage of the period recorded at or after the release's time. When none
 * was, but a document read after the release still carried the period (`seenAt`), the release left the value as it
 * stood: the latest earlier vintage. Otherwise the release's figure has not been seen yet (null). Vintages oldest first.
 */
export function releaseVintage<V extends VintageTimes>(
  vintages: readonly V[],
  releaseAt: string,
  seenAt: string | null,
): V | null {
  const produced = vintages.find((vintage) => (vintageRecordedAt(vintage) ?? "") >= releaseAt);
  if (produced) return produced;
  return seenAt !== null && seenAt >= releaseAt ? (vintages.at(-1) ?? null) : null;
}
