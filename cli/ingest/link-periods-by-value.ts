import { DateTime } from "luxon";
import { SDMX_PERIOD_FORMATS } from "../../schemas/reference-periods.ts";
import { type Registry, type Release, type Series, upstreamSeriesKey } from "../../schemas/registry.ts";
import { readPeriodText } from "./adapters/period-text.ts";
import type { RunContext } from "./apply-calendar.ts";
import type { Store } from "./ledger/store.ts";
import type { SourceObservation } from "./records.ts";
import { releaseStartsAt } from "./release-vintage.ts";

/** Monthly and quarterly figures come one period per release; other frequencies have no such rhythm to read. */
const LINKABLE_FREQUENCIES: readonly Series["frequency"][] = ["MONTHLY", "QUARTERLY"];

/**
 * Reference periods that values confirm, for calendars that state none (the BLS schedule gives a release's name and
 * time only). A value document retrieved at R whose newest period of a series a release publishes is P shows what the
 * latest event of that release up to R published, provided that event is also the release's first after P ended:
 * then that event published P, and the value is the evidence. Anything else (a document older than the events,
 * a release that skipped a period, a period published late) links nothing, and the event stays without a period.
 * `keep` records what each document shows as it is applied; `relinkAll` links from everything kept, at a run's end.
 */
export function createPeriodLinker(registry: Registry) {
  const releasesByUpstream = new Map<string, { series: Series; releases: Release[] }>();
  for (const series of registry.series) {
    if (!series.upstream || !LINKABLE_FREQUENCIES.includes(series.frequency)) continue;
    const releases = registry.releases.filter((release) => release.seriesSlugs.includes(series.slug));
    if (releases.length > 0) releasesByUpstream.set(upstreamSeriesKey(series.upstream), { series, releases });
  }

  /** Links the event that published `period` of a series, as a document retrieved at `readBy` shows it: 1 or 0. */
  const linkPeriod = (
    store: Store,
    newest: { seriesId: string; referencePeriod: string; value: string },
    readBy: string,
    run: RunContext,
  ): number => {
    const period = readPeriodText(newest.referencePeriod, SDMX_PERIOD_FORMATS);
    if (!period || (period.kind !== "MONTH" && period.kind !== "QUARTER")) return 0;
    const { series, releases } = releasesByUpstream.get(newest.seriesId)!;
    const readByUtc = DateTime.fromISO(readBy, { zone: "utc" });
    const window = decidingDates(period.endDate, readByUtc);
    let linked = 0;
    for (const release of releases) {
      const event = publishingEvent(
        store.liveEventsScheduledBetween(release.slug, window.from, window.to),
        period.endDate,
        readBy,
      );
      if (!event || event.reference_period !== null) continue;
      const referencePeriod = JSON.stringify(period);
      store.recordChange(event.id, run, "reference_period", null, referencePeriod);
      store.updateEvent({ ...event, reference_period: referencePeriod, updated_at: run.at });
      const retrieved = readByUtc.toISO({ suppressMilliseconds: true });
      const detail =
        `${series.slug} ${period.code} = ${newest.value}, the newest period of a document retrieved ${retrieved}: ` +
        `this is the latest ${release.name} event by then and the first after ${period.code} ended, so it published ${period.code}`;
      store.addEvidence(event.id, "VERIFIED_VALUE", run.at, event.scheduled_at, detail, null);
      linked++;
    }
    return linked;
  };

  return {
    /**
     * Keeps the newest period of each linkable series a value document shows (`value_document_periods`), with its fetch:
     * what `relinkAll` links, at the end of the run, in one order whatever order the documents came in.
     */
    keep(store: Store, observations: readonly SourceObservation[], retrievedAt: string, run: RunContext): void {
      const newest = new Map<string, SourceObservation & { value: string }>();
      for (const observation of observations) {
        if (observation.value === null || !releasesByUpstream.has(observation.seriesId)) continue;
        const known = newest.get(observation.seriesId);
        if (!known || observation.referencePeriod > known.referencePeriod)
          newest.set(observation.seriesId, observation as SourceObservation & { value: string });
      }
      const keep = store.db.prepare(
        "INSERT OR IGNORE INTO value_document_periods VALUES (@sha256, @retrievedAt, @seriesId, @period, @value, @at, @runId)",
      );
      // Only a document's first retrieval is evidence: a later fetch of the same bytes shows a period that was already
      // out, so it could only link an event that started after the period was published. Keeping the earliest alone
      // also keeps the table from growing with every fetch of an unchanged document (hourly and `--due` runs).
      const dropLater = store.db.prepare(
        `DELETE FROM value_document_periods WHERE sha256 = @sha256 AND series_id = @seriesId AND retrieved_at >
        (SELECT min(retrieved_at) FROM value_document_periods WHERE sha256 = @sha256 AND series_id = @seriesId)`,
      );
      for (const observation of newest.values()) {
        const row = { sha256: run.document?.sha256 ?? "", seriesId: observation.seriesId };
        keep.run({
          ...row,
          retrievedAt,
          period: observation.referencePeriod,
          value: observation.value,
          at: run.at,
          runId: run.runId,
        });
        dropLater.run(row);
      }
    },
    /**
     * Links from every value document the store kept, as each one's own fetch would, oldest retrieval first (then by
     * content hash and series, so that which series is named as the evidence never depends on the order of runs);
     * returns the events linked.
     */
    relinkAll(store: Store): number {
      const rows = store.db
        .prepare("SELECT * FROM value_document_periods ORDER BY retrieved_at, sha256, series_id")
        .all() as {
        sha256: string;
        retrieved_at: string;
        series_id: string;
        reference_period: string;
        value: string;
        observed_at: string;
        run_id: string;
      }[];
      let linked = 0;
      for (const row of rows) {
        if (!releasesByUpstream.has(row.series_id)) continue;
        const run: RunContext = {
          runId: row.run_id,
          at: row.observed_at,
          document: { sha256: row.sha256, fetchedAt: row.retrieved_at },
        };
        linked += linkPeriod(
          store,
          { seriesId: row.series_id, referencePeriod: row.reference_period, value: row.value },
          readByOf(row.retrieved_at, row.observed_at),
          run,
        );
      }
      return linked;
    },
  };
}

/** A document is read no later than the run reads it, whatever its name says. */
const readByOf = (retrievedAt: string, at: string) => (retrievedAt < at ? retrievedAt : at);

type ScheduledEvent = Parameters<typeof releaseStartsAt>[0];

/**
 * The event that published the period ending `periodEndDate`, as a value read at `readBy` shows it: the latest event
 * started by then, when it is also the first dated after the period's end. Null when no event is both.
 */
export function publishingEvent<E extends ScheduledEvent>(
  events: readonly E[],
  periodEndDate: string,
  readBy: string,
): E | null {
  const ordered = events
    .map((event) => ({ event, startsAt: releaseStartsAt(event) }))
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  const latest = ordered.filter(({ startsAt }) => startsAt <= readBy).at(-1);
  const firstAfter = ordered.find(({ event }) => event.scheduled_date > periodEndDate);
  return latest !== undefined && latest.event === firstAfter?.event ? latest.event : null;
}

/**
 * The scheduled dates of the events that can decide a link: two days either side of the period's end and of the
 * reading. An event starts within its local date, so at most 14 hours before or 36 hours after that date's UTC midnight;
 * an event dated later than the reading's date plus one cannot have started by then, and one dated before the
 * period's end minus one cannot start after an event dated after the period's end, so neither changes which event is
 * the latest by the reading nor which is the first after the period. Reading the window, not the release's whole
 * history, keeps a document's linking independent of how many years of calendar the ledger holds.
 */
export function decidingDates(periodEndDate: string, readBy: DateTime): { from: string; to: string } {
  return {
    from: DateTime.fromISO(periodEndDate, { zone: "utc" }).minus({ days: 2 }).toISODate()!,
    to: readBy.plus({ days: 2 }).toISODate()!,
  };
}
