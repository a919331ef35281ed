import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { type RunningService, startService } from "../support/service.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

/**
 * Issue 38, "Done when": the sample archive (real recordings, their fetch times in sidecars) replayed into two data
 * directories at different times, and one source at a time in other orders, gives the same answer on every economics
 * route but for the ingestion times: `ingestedAt`, the meta's ingestion and rebuild times, run ids, and the times a
 * document of unknown fetch time was read at (the replay's own clock, which no replay here shares with another).
 *
 * The replays' clocks are in 2035 and later, beyond every date the recordings carry, so that any instant from a
 * replay's clock is told apart from the publishers' by its year; the services answer at one instant of 2026.
 */
const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
const SLUGS = SOURCES.map((source) => source.slug as string);

async function replay(dataDir: string, startIso: string, only: string[] | null): Promise<void> {
  let tick = Date.parse(startIso);
  const summary = await runIngestion({
    dataDir,
    registry,
    mode: { kind: "archive", dir: SAMPLES_DIR },
    only,
    now: () => tick++,
    progress: () => {},
  });
  expect(summary.outcome, JSON.stringify(summary.sources)).toBe("succeeded");
}

const REPLAY_CLOCK_YEAR = /^20[3-9]\d-\d{2}-\d{2}T/;
const INGESTION_FIELDS = new Set(["ingestedAt", "lastIngestedAt", "lastSuccessfulIngestionAt", "dataUpdatedAt"]);
const UNTIMED_FIELDS = new Set(["requestId", "generatedAt", "runId", "sourceChecks", "cacheAgeSeconds", "cached"]);

/** An answer with its ingestion times and run ids replaced by a marker, everything else as served. */
function withoutIngestionTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIngestionTimes);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, field]) => [
        key,
        INGESTION_FIELDS.has(key) || UNTIMED_FIELDS.has(key) ? "<ingestion>" : withoutIngestionTimes(field),
      ]),
    );
  }
  if (typeof value === "string") {
    if (REPLAY_CLOCK_YEAR.test(value)) return "<replay clock>";
    return value.replace(/run_\d{8}T\d{6}_[0-9a-f]+/g, "<run>").replace(/20[3-9]\d-\d{2}-\d{2}T[\d:.]+Z/g, "<clock>");
  }
  return value;
}

/** Every page of a paged answer's `data` (followed by `nextCursor`). */
async function allPages(get: (path: string) => Promise<{ status: number; body: any }>, path: string) {
  const pages: unknown[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const { status, body } = await get(cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path);
    pages.push({ status, body: withoutIngestionTimes(body) });
    cursor = status === 200 ? (body.meta?.nextCursor ?? null) : null;
  } while (cursor);
  return pages;
}

/** The answers of every economics route over the whole sample archive, as a user would read them. */
async function answers(service: RunningService): Promise<Record<string, unknown>> {
  const get = credentialedClient(service);
  const out: Record<string, unknown> = {};
  for (let year = 2015; year <= 2028; year++) {
    const window = `from=${year}-01-01&to=${year}-12-31`;
    out[`events ${year}`] = await allPages(get, `/api/v1/economics/events?${window}&limit=500`);
    // The calendar route groups the same records by day: two years of it suffice.
    if (year === 2025 || year === 2026)
      out[`calendar ${year}`] = await allPages(get, `/api/v1/economics/calendar?${window}&limit=500`);
  }
  for (const month of ["2016-06", "2023-07", "2025-10", "2026-08", "2026-10"]) {
    out[`public calendar ${month}`] = await allPages(
      get,
      `/api/public/v1/economics/calendar?from=${month}-01&to=${month}-28&limit=200`,
    );
  }
  out.releases = await allPages(get, "/api/public/v1/economics/releases?limit=100");
  out.news = await allPages(get, "/api/public/v1/news/events?limit=100&from=2025-01-01&to=2026-12-31");
  for (const series of registry.series) {
    out[`observations ${series.slug}`] = await allPages(
      get,
      `/api/public/v1/economics/observations?series=${series.slug}&limit=365`,
    );
    const credentialed = `/api/v1/economics/series/${series.slug}/observations`;
    out[`vintages ${series.slug}`] = await allPages(get, `${credentialed}?vintages=all&limit=365`);
    out[`as of ${series.slug}`] = await allPages(get, `${credentialed}?asOf=2026-09-01T00:00:00Z&limit=365`);
  }
  return out;
}

/** The routes whose answers differ from the single replay's (a short failure message before the whole comparison). */
function sameAsOnce(answered: Record<string, unknown>, once: Record<string, unknown>): void {
  const differing = Object.keys(once).filter((key) => !isDeepStrictEqual(answered[key], once[key]));
  expect(
    differing,
    differing.length ? firstDifference(answered[differing[0]!], once[differing[0]!], differing[0]!) : "",
  ).toEqual([]);
  expect(answered).toEqual(once);
}

/** Where two answers first differ, with both values there (a short message for a failure). */
function firstDifference(a: unknown, b: unknown, path: string): string {
  if (isDeepStrictEqual(a, b)) return "";
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (found) return found;
    }
  }
  return `${path}: ${JSON.stringify(a)?.slice(0, 1500)} where one replay answers ${JSON.stringify(b)?.slice(0, 1500)}`;
}

async function answersOf(dataDir: string): Promise<Record<string, unknown>> {
  const service = await startService({ seedDataDir: dataDir });
  try {
    return await answers(service);
  } finally {
    await service.close();
  }
}

describe("replays of the sample archive give the same answers whenever and in whatever order they run", () => {
  let once: Record<string, unknown>;
  afterAll(() => removeTempDirs());

  beforeAll(async () => {
    const dataDir = tempDir("independence-once");
    await replay(dataDir, "2035-01-01T06:00:00Z", null);
    once = await answersOf(dataDir);
  }, 120_000);

  it("holds what the archive holds: events, values, vintages and linked news", () => {
    const text = JSON.stringify(once);
    expect(text).toContain('"linkStatus":"LINKED"');
    expect(text).toContain('"derivation":"SERVICE_DERIVED"');
    expect(text).toContain('"confirmed":true');
  });

  it("never takes the replay's clock for a publisher's time: a fetch time nothing records is null", () => {
    const times = { clock: 0, known: 0, unknown: 0 };
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === "object")
        for (const [key, field] of Object.entries(value)) {
          if (key === "fetchedAt" || key === "recordedAt")
            times[field === "<replay clock>" ? "clock" : field === null ? "unknown" : "known"]++;
          visit(field);
        }
    };
    visit(once);
    expect(times.clock).toBe(0);
    // The recordings without a stated capture time (data/samples/SOURCES.md) and the many with one.
    expect(times.unknown).toBeGreaterThan(0);
    expect(times.known).toBeGreaterThan(times.unknown);
  });

  it("a second data directory, replayed at another time", async () => {
    const dataDir = tempDir("independence-later");
    await replay(dataDir, "2037-06-15T18:30:00Z", null);
    sameAsOnce(await answersOf(dataDir), once);
  }, 120_000);

  it.each([
    // The order the issue names (values before their calendars), with announcements before both.
    ["values and announcements before calendars", [...SLUGS].reverse()],
  ])(
    "one source at a time: %s",
    async (_, order) => {
      expect([...order].sort()).toEqual([...SLUGS].sort());
      const dataDir = tempDir("independence-per-source");
      for (const [position, slug] of order.entries())
        await replay(dataDir, `${2040 + position}-03-01T09:00:00Z`, [slug]);
      sameAsOnce(await answersOf(dataDir), once);
    },
    180_000,
  );
});
