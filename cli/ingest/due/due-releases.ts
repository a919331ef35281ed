import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DateTime } from "luxon";
import { DATA_FILES } from "../../../schemas/data-files.ts";
import { inputLedgerKey, type Registry, type Series } from "../../../schemas/registry.ts";
import type { ObservationApi } from "../../../schemas/vocabularies.ts";
import { hasTable } from "../../../server/storage/has-table.ts";
import { customaryHourOf } from "./customary-release-hours.ts";
import { type FiguresRule, figuresInOf } from "./release-figures-in.ts";
import { sourceWaitsAt } from "./source-waits.ts";

/**
 * Which releases are due (`service ingest --due`): a release of the calendar whose figures the service fetches is due
 * from its scheduled instant (a date-only one from its publisher's customary hour on its date,
 * customary-release-hours.ts) until its figures are in (release-figures-in.ts) or the deadline after that has passed.
 * A due release whose every source asked to wait (a Retry-After, source-waits.ts) is held, not asked. Read from the
 * store with a handful of indexed queries and the registry's sources as plain JSON, so that a run with nothing to do
 * ends within a fraction of a second.
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
  /** How its figures are known to be in (release-figures-in.ts). */
  figures: FiguresRule;
  /** For a date-only event, how `dueFrom` was chosen (customary-release-hours.ts). */
  customaryHour: string | null;
}

/** The moment and the deadline a due rule is read at, and the sources a run may ask (all when null). */
interface DueQuery {
  nowMs: number;
  deadlineMs: number;
  sources: readonly string[] | null;
}

export interface DueState {
  due: DueRelease[];
  /** Due releases not asked now: every source of theirs asked to wait until the instant given (`waits`). */
  held: DueRelease[];
  /** The sources that asked not to be asked now, with until when. */
  waits: Map<string, string>;
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
  figures: FiguresRule;
}

/**
 * Releases whose figures come from an observation API (one of `sources` when given), with the series and APIs to ask,
 * and how their figures are known to be in: by a value of their own, or for a release whose every series is derived
 * from publisher series read only as inputs, by those inputs read after it became due.
 */
function fetchableReleases(catalogue: DueCatalogue, sources: readonly string[] | null): Map<string, Fetchable> {
  const bySlug = new Map(catalogue.series.map((series) => [series.slug, series]));
  interface Collected {
    slugs: Set<string>;
    apis: Set<ObservationApi>;
    inputKeys: Set<string>;
    ownValues: boolean;
  }
  const collect = (slug: string, into: Collected) => {
    const series: Series | undefined = bySlug.get(slug);
    if (!series?.active || into.slugs.has(slug)) return;
    into.slugs.add(slug);
    if (series.upstream) {
      into.apis.add(series.upstream.api);
      into.ownValues = true;
    }
    const input = series.derived?.inputUpstream;
    if (input) {
      into.apis.add(input.api);
      into.inputKeys.add(inputLedgerKey(input));
    }
    if (series.derived?.inputSeriesSlug) collect(series.derived.inputSeriesSlug, into);
  };
  const fetchable = new Map<string, Fetchable>();
  for (const release of catalogue.releases) {
    const into: Collected = { slugs: new Set(), apis: new Set(), inputKeys: new Set(), ownValues: false };
    for (const slug of release.seriesSlugs) collect(slug, into);
    const apis = [...into.apis];
    if (apis.length === 0 || (sources !== null && !apis.some((api) => sources.includes(api)))) continue;
    fetchable.set(release.slug, {
      sources: apis,
      seriesSlugs: [...into.slugs],
      publisher: release.publisher,
      figures: into.ownValues ? { kind: "values" } : { kind: "inputs", inputKeys: [...into.inputKeys] },
    });
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

/** The due releases at the query's moment and the next one to come; read-only on the store. */
export function dueState(dataDir: string, catalogue: DueCatalogue, query: DueQuery): DueState {
  const path = join(dataDir, DATA_FILES.store);
  const none: DueState = { due: [], held: [], waits: new Map(), next: null, hasCalendar: false };
  if (!existsSync(path)) return none;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    if (!hasTable(db, "events")) return none;
    return dueStateOf(db, catalogue, query);
  } catch (error) {
    // A damaged store: say which file, since a run every minute repeats it into the operator's log.
    throw new Error(`the store ${path} cannot be read: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

function dueStateOf(db: Database.Database, catalogue: DueCatalogue, query: DueQuery): DueState {
  const { nowMs, deadlineMs } = query;
  const fetchable = fetchableReleases(catalogue, query.sources);
  const hasCalendar = db.prepare("SELECT 1 FROM events LIMIT 1").get() !== undefined;
  const waits = sourceWaitsAt(db, nowMs);
  const state: DueState = { due: [], held: [], waits, next: null, hasCalendar };
  if (fetchable.size === 0) return state;
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
  const figuresIn = figuresInOf(db);
  let next: DueRelease | null = null;
  for (const row of rows) {
    // Events dated two days after the next one's date cannot become due before it.
    if (next && row.scheduled_date > DateTime.fromISO(next.scheduledDate).plus({ days: 2 }).toISODate()!) break;
    const release = dueRelease(row, fetchable.get(row.release_slug)!, deadlineMs);
    const from = Date.parse(release.dueFrom);
    if (from > nowMs ? next !== null && from >= Date.parse(next.dueFrom) : nowMs >= Date.parse(release.dueUntil))
      continue;
    // Figures already in (a publisher early, or a recording replayed) make a release neither due nor next.
    if (figuresIn(release) !== null) continue;
    if (from > nowMs) next = release;
    else if (askable(release, query.sources, waits).length === 0) state.held.push(release);
    else state.due.push(release);
  }
  return { ...state, next };
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
    figures: fetchable.figures,
    customaryHour,
  };
}

/** The sources of a due release a run may ask now: within the run's sources, and none that asked to wait. */
export function askable(release: DueRelease, sources: readonly string[] | null, waits: Map<string, string>): string[] {
  return release.sources.filter((source) => (sources === null || sources.includes(source)) && !waits.has(source));
}
