import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DateTime } from "luxon";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { Registry, Series } from "../../schemas/registry.ts";
import type { ObservationApi } from "../../schemas/vocabularies.ts";
import { customaryHourOf } from "./customary-release-hours.ts";

/**
 * Which releases are due (`service ingest --due`): a release of the calendar whose figures the service fetches is due
 * from its scheduled instant (a date-only one from its publisher's customary hour on its date,
 * customary-release-hours.ts) until its figures are in (the event holds value evidence, `VERIFIED_VALUE`) or the
 * deadline after that has passed. Read from the store with a handful of indexed queries and the registry's sources as
 * plain JSON, so that a run with nothing to do ends within a fraction of a second.
 */

/** What the due rule reads of the registry. */
export type DueCatalogue = Pick<Registry, "releases" | "series">;

export interface DueRelease {
  eventId: string;
  release: string;
  title: string;
  /** The event's own instant; null for an event its calendar dates without a time. */
  scheduledAt: string | null;
  scheduledDate: string;
  /** When it became due: `scheduledAt`, or for a date-only event its publisher's customary hour on its date. */
  dueFrom: string;
  /** When it stops being due if its figures have not come. */
  dueUntil: string;
  /** The observation API of its first series (the metric's `source`), then any other its series come from. */
  sources: ObservationApi[];
  /** Registry series to ask for: the release's active series and the registered series they are derived from. */
  seriesSlugs: string[];
  /** For a date-only event, how `dueFrom` was chosen (customary-release-hours.ts). */
  customaryHour: string | null;
}

export interface DueState {
  due: DueRelease[];
  /** The next release to become due after now, or null when the calendar holds none. */
  next: DueRelease | null;
  /** Whether the store holds any event at all (a calendar has been ingested). */
  hasCalendar: boolean;
}

/** The registry's releases and series as their curated sources state them, not validated (the run validates them). */
export function readDueCatalogue(registryDir: string): DueCatalogue {
  const read = (name: string) => JSON.parse(readFileSync(join(registryDir, `${name}.json`), "utf8"));
  return { releases: read("releases"), series: read("series") };
}

interface Fetchable {
  sources: ObservationApi[];
  seriesSlugs: string[];
  publisher: DueCatalogue["releases"][number]["publisher"];
}

/** Releases whose figures come from an observation API, with the series and APIs to ask. */
function fetchableReleases(catalogue: DueCatalogue): Map<string, Fetchable> {
  const bySlug = new Map(catalogue.series.map((series) => [series.slug, series]));
  const collect = (slug: string, slugs: Set<string>, apis: Set<ObservationApi>) => {
    const series: Series | undefined = bySlug.get(slug);
    if (!series?.active || slugs.has(slug)) return;
    slugs.add(slug);
    if (series.upstream) apis.add(series.upstream.api);
    if (series.derived?.inputUpstream) apis.add(series.derived.inputUpstream.api);
    if (series.derived?.inputSeriesSlug) collect(series.derived.inputSeriesSlug, slugs, apis);
  };
  const fetchable = new Map<string, Fetchable>();
  for (const release of catalogue.releases) {
    const slugs = new Set<string>();
    const apis = new Set<ObservationApi>();
    for (const slug of release.seriesSlugs) collect(slug, slugs, apis);
    if (apis.size > 0)
      fetchable.set(release.slug, { sources: [...apis], seriesSlugs: [...slugs], publisher: release.publisher });
  }
  return fetchable;
}

interface EventRow {
  id: string;
  release_slug: string;
  title: string;
  scheduled_date: string;
  scheduled_at: string | null;
}

const instant = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** The due releases at `nowMs` and the next one to come; read-only on the store. */
export function dueState(dataDir: string, catalogue: DueCatalogue, nowMs: number, deadlineMs: number): DueState {
  const path = join(dataDir, DATA_FILES.store);
  const none: DueState = { due: [], next: null, hasCalendar: false };
  if (!existsSync(path)) return none;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").get()) return none;
    return dueStateOf(db, catalogue, nowMs, deadlineMs);
  } finally {
    db.close();
  }
}

export function dueStateOf(
  db: Database.Database,
  catalogue: DueCatalogue,
  nowMs: number,
  deadlineMs: number,
): DueState {
  const fetchable = fetchableReleases(catalogue);
  const hasCalendar = db.prepare("SELECT 1 FROM events LIMIT 1").get() !== undefined;
  if (fetchable.size === 0) return { due: [], next: null, hasCalendar };
  const slugs = [...fetchable.keys()];
  // From two days before the earliest date an event still due can carry (a zone is at most 14 hours off UTC), in
  // date order: release_slug and scheduled_date are the leading columns of an index.
  const firstDate = DateTime.fromMillis(nowMs - deadlineMs, { zone: "utc" })
    .minus({ days: 2 })
    .toISODate()!;
  const rows = db
    .prepare(`SELECT id, release_slug, title, scheduled_date, scheduled_at FROM events
      WHERE release_slug IN (${slugs.map(() => "?").join(", ")}) AND scheduled_date >= ?
      AND status != 'CANCELLED' AND withdrawn_at IS NULL ORDER BY scheduled_date, id`)
    .iterate(...slugs, firstDate) as IterableIterator<EventRow>;
  const figuresIn = db.prepare("SELECT 1 FROM evidence WHERE event_id = ? AND kind = 'VERIFIED_VALUE' LIMIT 1");
  const due: DueRelease[] = [];
  let next: DueRelease | null = null;
  for (const row of rows) {
    // Events dated two days after the next one's date cannot become due before it.
    if (next && row.scheduled_date > DateTime.fromISO(next.scheduledDate).plus({ days: 2 }).toISODate()!) break;
    const release = dueRelease(row, fetchable.get(row.release_slug)!, deadlineMs);
    const from = Date.parse(release.dueFrom);
    if (from > nowMs ? next !== null && from >= Date.parse(next.dueFrom) : nowMs >= Date.parse(release.dueUntil))
      continue;
    // Figures already in (a publisher early, or a recording replayed) make a release neither due nor next.
    if (figuresIn.get(row.id) !== undefined) continue;
    if (from > nowMs) next = release;
    else due.push(release);
  }
  return { due, next, hasCalendar };
}

function dueRelease(row: EventRow, fetchable: Fetchable, deadlineMs: number): DueRelease {
  let dueFromMs: number;
  let customaryHour: string | null = null;
  if (row.scheduled_at !== null) dueFromMs = Date.parse(row.scheduled_at);
  else {
    const hour = customaryHourOf(row.release_slug, fetchable.publisher);
    dueFromMs = DateTime.fromISO(`${row.scheduled_date}T${hour.time}`, { zone: hour.zone }).toMillis();
    customaryHour = `${hour.time} ${hour.zone}`;
  }
  return {
    eventId: row.id,
    release: row.release_slug,
    title: row.title,
    scheduledAt: row.scheduled_at,
    scheduledDate: row.scheduled_date,
    dueFrom: instant(dueFromMs),
    dueUntil: instant(dueFromMs + deadlineMs),
    sources: fetchable.sources,
    seriesSlugs: fetchable.seriesSlugs,
    customaryHour,
  };
}

/** The one line a run with nothing due writes on stderr. */
export function nothingDueLine(state: DueState): string {
  if (!state.hasCalendar) return "nothing due: the store holds no calendar yet (a full `service ingest` reads it)";
  const next = state.next;
  if (!next) return "nothing due: the calendar holds no later release whose figures the service fetches";
  const dateOnly =
    next.customaryHour === null
      ? ""
      : `, dated ${next.scheduledDate} with no time: asked for from the customary ${next.customaryHour}`;
  return `nothing due until ${next.dueFrom}, ${next.release} (${next.title}${dateOnly})`;
}

/** The registry a due run asks with: only the series of the due releases (the index is still built from all). */
export function dueRequestRegistry<R extends Registry>(registry: R, due: readonly DueRelease[]): R {
  const wanted = new Set(due.flatMap((release) => release.seriesSlugs));
  return { ...registry, series: registry.series.filter((series) => wanted.has(series.slug)) };
}

/** The observation APIs a due run asks, in no particular order. */
export function dueSources(due: readonly DueRelease[]): ObservationApi[] {
  return [...new Set(due.flatMap((release) => release.sources))];
}
