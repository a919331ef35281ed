import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { PUBLISHER_PATHS } from "../support/publisher-paths.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { startService } from "../support/service.ts";
import { removeTempDirs, runCliAsync, tempDir } from "./cli-process.ts";
import { dumpTables } from "./sqlite-dump.ts";

const registry = readRegistrySources();
/** Publisher series fetched from one API: those of active series and those active derived series read as input. */
const activeSeriesOf = (api: string) =>
  registry.series
    .filter((series) => series.active)
    .flatMap((series) => [series.upstream, series.derived?.inputUpstream ?? null])
    .filter((upstream) => upstream?.api === api).length;

interface CheckRow {
  source: string;
  latest_check: string;
  last_success_at: string | null;
  checked_at: string;
}
const checksOf = (dataDir: string) =>
  new Map(
    (dumpTables(join(dataDir, "index.sqlite")).source_checks as unknown as CheckRow[]).map((row) => [row.source, row]),
  );
const positionOf = (slug: string) => `[${SOURCES.findIndex((source) => source.slug === slug) + 1}/${SOURCES.length}]`;
const factsOf = (dataDir: string) =>
  Object.fromEntries(dumpTables(join(dataDir, "index.sqlite")).publication!.map((row) => [row.key, row.value]));

describe("service ingest fetching from the publishers' paths (stand-in)", () => {
  let standin: PublisherStandin;
  const dataDir = tempDir("fetch-mode");
  let env: Record<string, string>;
  const ingest = (args: string[] = [], extra: Record<string, string> = {}) =>
    runCliAsync(["ingest", "--data-dir", dataDir, ...args], { ...env, ...extra });

  beforeAll(async () => {
    standin = await startPublisherStandin();
    env = {
      ...standin.env,
      SERVICE_INGEST_TIMEOUT_MS: "5000",
      SERVICE_INGEST_RETRIES: "0",
      SERVICE_INGEST_USER_AGENT: "fetch-mode-test (test@example.org)",
    };
  });
  afterAll(async () => {
    await standin?.close();
    removeTempDirs();
  });

  it("fetches every source once from its publisher path, succeeds and publishes", async () => {
    const result = await ingest();
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/: succeeded, index published$/m);
    for (const [position, source] of SOURCES.entries()) {
      expect(result.stderr).toContain(`[${position + 1}/${SOURCES.length}] ${source.slug}: fetching…`);
      expect(result.stderr).toMatch(new RegExp(`^\\[${position + 1}/${SOURCES.length}\\] ${source.slug}: ok — `, "m"));
    }
    expect({
      blsSchedule: standin.count(PUBLISHER_PATHS.blsSchedule),
      eurostatCalendar: standin.count(PUBLISHER_PATHS.eurostatCalendar),
      ecbMeetings: standin.count(PUBLISHER_PATHS.ecbMeetings),
      ecbStatistics: standin.count(PUBLISHER_PATHS.ecbStatistics),
      blsApi: standin.count(PUBLISHER_PATHS.blsApi),
      eurostatData: standin.count(PUBLISHER_PATHS.eurostatData),
      ecbData: standin.count(PUBLISHER_PATHS.ecbData),
    }).toEqual({
      blsSchedule: 1,
      eurostatCalendar: 1,
      ecbMeetings: 1,
      ecbStatistics: 1,
      blsApi: 1,
      eurostatData: activeSeriesOf("eurostat-sdmx"),
      ecbData: activeSeriesOf("ecb-data"),
    });
    // Exactly the requests the source catalogue makes, each once, and nothing else.
    const expected = SOURCES.flatMap((source) =>
      source.requests({ hosts: standin.hosts, registry, now: DateTime.utc(), blsApiKey: null }),
    )
      .map((request) => `${request.method ?? "GET"} ${new URL(request.url).pathname}`)
      .sort();
    expect(standin.requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual(expected);
    const blsRequest = standin.requests.find((request) => request.path === PUBLISHER_PATHS.blsApi)!;
    expect(blsRequest.method).toBe("POST");
    expect(JSON.parse(blsRequest.body).seriesid).toHaveLength(activeSeriesOf("bls-api"));

    const checks = checksOf(dataDir);
    expect([...checks.keys()].sort()).toEqual(SOURCES.map((source) => source.slug).sort());
    for (const check of checks.values())
      expect(check).toMatchObject({ latest_check: "successful", last_success_at: check.checked_at });
    const index = dumpTables(join(dataDir, "index.sqlite"));
    expect(index.events!.length).toBeGreaterThan(0);
    expect(index.observations!.length).toBeGreaterThan(0);
  });

  it("with one publisher path failing: exits 1, that source incomplete, the others successful, the index still published", async () => {
    const before = factsOf(dataDir);
    const statsEventsBefore = (dumpTables(join(dataDir, "index.sqlite")).event_sources as { source: string }[]).filter(
      (row) => row.source === "central-bank-statistics-calendar",
    ).length;
    expect(statsEventsBefore).toBeGreaterThan(0);
    const requestsBefore = standin.count(PUBLISHER_PATHS.ecbStatistics);
    standin.fail(PUBLISHER_PATHS.ecbStatistics, 500);
    try {
      // One retry: a 5xx is retried (after a 1 s back-off) before the source is given up.
      const result = await ingest([], { SERVICE_INGEST_RETRIES: "1" });
      expect(result.status).toBe(1);
      expect(standin.count(PUBLISHER_PATHS.ecbStatistics) - requestsBefore).toBe(2);
      expect(result.stdout).toMatch(/: partial, index published$/m);
      expect(result.stdout).toMatch(/^incomplete sources: central-bank-statistics-calendar$/m);
      expect(result.stderr).toMatch(
        new RegExp(
          `^\\${positionOf("central-bank-statistics-calendar")} central-bank-statistics-calendar: INCOMPLETE — .*HTTP 500`,
          "m",
        ),
      );
      for (const source of SOURCES.filter((source) => source.slug !== "central-bank-statistics-calendar")) {
        expect(result.stderr).toMatch(new RegExp(`\\] ${source.slug}: ok — `));
      }
    } finally {
      standin.reset(PUBLISHER_PATHS.ecbStatistics);
    }

    const after = factsOf(dataDir);
    expect(after.publishedAt! > before.publishedAt!).toBe(true);
    expect(after.lastIngestedAt).toBe(after.publishedAt);
    // The last run that succeeded fully is still the first one.
    expect(after.lastSuccessfulIngestionAt).toBe(before.lastSuccessfulIngestionAt);
    const checks = checksOf(dataDir);
    const failed = checks.get("central-bank-statistics-calendar")!;
    expect(failed.latest_check).toBe("incomplete");
    expect(failed.last_success_at).not.toBeNull();
    expect(failed.last_success_at! < failed.checked_at).toBe(true);
    for (const [source, check] of checks)
      if (source !== "central-bank-statistics-calendar") expect(check.latest_check, source).toBe("successful");
    // What the failed source had brought earlier is still there.
    const statsEventsAfter = (dumpTables(join(dataDir, "index.sqlite")).event_sources as { source: string }[]).filter(
      (row) => row.source === "central-bank-statistics-calendar",
    ).length;
    expect(statsEventsAfter).toBe(statsEventsBefore);

    // And the public calendar says so.
    const service = await startService({ seedDataDir: dataDir });
    try {
      const calendar = await service.request("/api/public/v1/economics/calendar");
      expect(calendar.status).toBe(200);
      const sourceChecks = calendar.body.meta.sourceChecks as {
        sourceId: string;
        latestCheck: string;
        lastSuccessAt: string | null;
      }[];
      expect(sourceChecks.find((check) => check.sourceId === "central-bank-statistics-calendar")).toEqual({
        sourceId: "central-bank-statistics-calendar",
        latestCheck: "incomplete",
        lastSuccessAt: failed.last_success_at,
      });
      expect(sourceChecks.find((check) => check.sourceId === "labour-stats-release-schedule")!.latestCheck).toBe(
        "successful",
      );
    } finally {
      await service.close();
    }
  });

  it("gives up on a publisher that does not answer within SERVICE_INGEST_TIMEOUT_MS and goes on with the others", async () => {
    standin.hang(PUBLISHER_PATHS.blsSchedule);
    try {
      const started = Date.now();
      const result = await ingest([], { SERVICE_INGEST_TIMEOUT_MS: "400" });
      expect(result.status).toBe(1);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(result.stderr).toMatch(
        new RegExp(
          `^\\${positionOf("labour-stats-release-schedule")} labour-stats-release-schedule: INCOMPLETE — .*did not answer within 400 ms`,
          "m",
        ),
      );
      expect(result.stdout).toMatch(/: partial, index published$/m);
      expect(result.stdout).toMatch(/^incomplete sources: labour-stats-release-schedule$/m);
    } finally {
      standin.reset(PUBLISHER_PATHS.blsSchedule);
    }
    expect(checksOf(dataDir).get("labour-stats-release-schedule")!.latest_check).toBe("incomplete");
    expect(checksOf(dataDir).get("central-bank-statistics-calendar")!.latest_check).toBe("successful");
  });

  it("when every source fails, keeps the index's data as it was and publishes only the checks, incomplete", async () => {
    const before = dumpTables(join(dataDir, "index.sqlite"));
    const factsBefore = factsOf(dataDir);
    const checksBefore = checksOf(dataDir);
    standin.fail("/*", 503);
    try {
      const result = await ingest();
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/: failed, source checks published$/m);
    } finally {
      standin.reset("/*");
    }
    const after = dumpTables(join(dataDir, "index.sqlite"));
    // Every table of data row for row as it was: only the checks and the generation's name move.
    const { source_checks: checksTable, publication, ...data } = after;
    const { source_checks: _, publication: __, ...dataBefore } = before;
    expect(data).toEqual(dataBefore);
    expect(checksTable).toHaveLength(SOURCES.length);
    for (const [source, check] of checksOf(dataDir)) {
      expect(check.latest_check, source).toBe("incomplete");
      expect(check.last_success_at, source).toBe(checksBefore.get(source)!.last_success_at);
    }
    const facts = factsOf(dataDir);
    expect(publication).toHaveLength(4);
    expect(facts.publishedAt! > factsBefore.publishedAt!).toBe(true);
    // The data is still the one rebuilt when the index was last published; the ingestion facts do not move.
    expect(facts).toEqual({ ...factsBefore, publishedAt: facts.publishedAt, dataRebuiltAt: factsBefore.publishedAt });

    // A second failing run states nothing new: no new generation.
    const published = readFileSync(join(dataDir, "index.sqlite"));
    standin.fail("/*", 503);
    try {
      const again = await ingest();
      expect(again.stdout).toMatch(/: failed, nothing published$/m);
    } finally {
      standin.reset("/*");
    }
    expect(readFileSync(join(dataDir, "index.sqlite")).equals(published)).toBe(true);
  });

  it("--source limits the run to that source and only its publisher is asked", async () => {
    const seen = standin.requests.length;
    const result = await ingest(["--source", "labour-stats-release-schedule"]);
    expect(result.status, result.stderr).toBe(0);
    expect(standin.requests.slice(seen).map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET ${PUBLISHER_PATHS.blsSchedule}`,
    ]);
    expect(result.stderr).toContain("[1/1] labour-stats-release-schedule: fetching…");
    expect(result.stderr).toMatch(/^\[1\/1\] labour-stats-release-schedule: ok — 1 document, /m);
    expect(result.stderr).not.toMatch(/eu-stats-release-calendar|bls-api|ecb-data/);

    const two = standin.requests.length;
    const both = await ingest(["--source", "labour-stats-release-schedule", "--source", "ecb-data"]);
    expect(both.status, both.stderr).toBe(0);
    expect(
      new Set(
        standin.requests
          .slice(two)
          .map((request) => (request.path.startsWith("/service/data/") ? "ecb-data" : request.path)),
      ),
    ).toEqual(new Set([PUBLISHER_PATHS.blsSchedule, "ecb-data"]));
  });

  it("refuses an unknown --source with exit code 2 and asks no publisher", async () => {
    const seen = standin.requests.length;
    const result = await ingest(["--source", "no-such-source"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/source must be one of labour-stats-release-schedule, /);
    expect(standin.requests.length).toBe(seen);
  });
});
