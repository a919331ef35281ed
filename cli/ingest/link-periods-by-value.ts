import { DateTime } from "luxon";
import { parsePeriodText, SDMX_PERIOD_FORMATS } from "../../schemas/reference-periods.ts";
import { upstreamSeriesKey, type Registry, type Release, type Series } from "../../schemas/registry.ts";
import type { RunContext } from "./apply-calendar.ts";
import type { SourceObservation } from "./records.ts";
import { releaseStartsAt } from "./release-vintage.ts";
import type { Store, StoredEvent } from "./store.ts";

/** Monthly and quarterly figures come one period per release; other frequencies have no such rhythm to read. */
const LINKABLE_FREQUENCIES: readonly Series["frequency"][] = ["MONTHLY", "QUARTERLY"];

/**
 * Reference periods that values confirm, for calendars that state none (the BLS schedule gives a release's name and
 * time only). A value document retrieved at R whose newest period of a series a release publishes is P shows what the
 * latest event of that release up to R published, provided that event is also the release's first after P ended:
 * then that event published P, and the value is the evidence. Anything else (a document older than the events,
 * a release that skipped a period, a period published late) links nothing, and the event stays without a period.
 * Returns the number of events linked.
 */
export function createPeriodLinker(registry: Registry) {
  const releasesByUpstream = new Map<string, { series: Series; releases: Release[] }>();
  for (const series of registry.series) {
    if (!series.upstream || !LINKABLE_FREQUENCIES.includes(series.frequency)) continue;
    const releases = registry.releases.filter((release) => release.seriesSlugs.includes(series.slug));
    if (releases.length > 0) releasesByUpstream.set(upstreamSeriesKey(series.upstream), { series, releases });
  }

  return (store: Store, observations: readonly SourceObservation[], retrievedAt: string, run: RunContext): number => {
    // A document is read no later than the run reads it, whatever its name says.
    const readBy = retrievedAt < run.at ? retrievedAt : run.at;
    const newest = new Map<string, SourceObservation>();
    for (const observation of observations) {
      if (observation.value === null || !releasesByUpstream.has(observation.seriesId)) continue;
      const known = newest.get(observation.seriesId);
      if (!known || observation.referencePeriod > known.referencePeriod) newest.set(observation.seriesId, observation);
    }
    let linked = 0;
    const eventsOf = store.db.prepare("SELECT * FROM events WHERE release_slug = ? AND status != 'CANCELLED'");
    for (const [seriesId, observation] of newest) {
      const period = parsePeriodText(observation.referencePeriod, SDMX_PERIOD_FORMATS);
      if (!period || (period.kind !== "MONTH" && period.kind !== "QUARTER")) continue;
      const { series, releases } = releasesByUpstream.get(seriesId)!;
      for (const release of releases) {
        const events = (eventsOf.all(release.slug) as StoredEvent[])
          .map((event) => ({ event, startsAt: releaseStartsAt(event) }))
          .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
        const latest = events.filter(({ startsAt }) => startsAt <= readBy).at(-1);
        const firstAfter = events.find(({ event }) => event.scheduled_date > period.endDate);
        if (!latest || latest.event.id !== firstAfter?.event.id || latest.event.reference_period !== null) continue;
        const event = latest.event;
        const referencePeriod = JSON.stringify(period);
        store.recordChange(event.id, run, "reference_period", null, referencePeriod);
        store.updateEvent({ ...event, reference_period: referencePeriod, updated_at: run.at });
        const retrieved = DateTime.fromISO(readBy, { zone: "utc" }).toISO({ suppressMilliseconds: true });
        const detail = `${series.slug} ${period.code} = ${observation.value}, the newest period of a document retrieved ${retrieved}: `
          + `this is the latest ${release.name} event by then and the first after ${period.code} ended, so it published ${period.code}`;
        store.addEvidence(event.id, "VERIFIED_VALUE", run.at, event.scheduled_at, detail, null);
        linked++;
      }
    }
    return linked;
  };
}
