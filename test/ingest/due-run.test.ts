import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialedClient } from "../support/economics-requests.ts";
import { PUBLISHER_PATHS } from "../support/publisher-paths.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { type RunningService, startService } from "../support/service.ts";
import { removeTempDirs, runCliAsync, tempDir } from "./cli-process.ts";

/**
 * `service ingest --due` run every minute around a real release: the July 2026 CPI, scheduled by BLS's own calendar
 * (data/samples, bls-schedule-2025-2026.ics) for 2026-08-12 08:30 New York time (12:30 UTC). The clock of each run is
 * set by SERVICE_CLOCK_START, so no test waits for the minutes it plays.
 *
 * The publishers are the stand-in serving the recorded documents of data/samples. One document is modified, and only
 * in time: until the instant BLS publishes (`PUBLISHED_AT`, 20 s after the scheduled time, as publishers often are a
 * few seconds late) the BLS API answer withholds the July 2026 row of CUUR0000SA0 from the recording captured on
 * 2026-08-24, standing for the API as it was before the release; from then on it is the recording unchanged. At the
 * scheduled minute itself it answers once 429 with `Retry-After: 10`, as an API throttling its callers does.
 */
const SCHEDULED_AT = "2026-08-12T12:30:00Z";
const PUBLISHED_AT = Date.parse("2026-08-12T12:30:20Z");
const JULY_CPI = "333.918";

describe("service ingest --due, every minute around the July 2026 CPI release", () => {
  const dataDir = tempDir("due-run");
  let standin: PublisherStandin;
  let env: Record<string, string>;
  let service: RunningService | undefined;
  /** The simulated instant the run now under way started at, and the real time it started: the publisher's clock. */
  let simulated = { startMs: 0, realMs: 0 };
  const publisherNow = () => simulated.startMs + (Date.now() - simulated.realMs);
  /** Whether the BLS API's next answer is a 429 asking to wait 10 s. */
  let throttleNext = false;

  /** One `service ingest` run at the simulated instant `at`, with the requests it made. */
  async function ingestAt(at: string, args: string[] = []) {
    simulated = { startMs: Date.parse(at), realMs: Date.now() };
    const before = standin.requests.length;
    const result = await runCliAsync(["ingest", "--data-dir", dataDir, ...args], { ...env, SERVICE_CLOCK_START: at });
    return { ...result, requests: standin.requests.slice(before) };
  }

  beforeAll(async () => {
    standin = await startPublisherStandin();
    standin.respond(PUBLISHER_PATHS.blsApi, (response, recorded) => {
      if (throttleNext) {
        throttleNext = false;
        response.writeHead(429, { "content-type": "text/plain", "retry-after": "10" });
        return void response.end("Too Many Requests");
      }
      const document = JSON.parse(recorded!.body.toString("utf8")) as {
        Results: { series: { seriesID: string; data: { year: string; period: string }[] }[] };
      };
      if (publisherNow() < PUBLISHED_AT) {
        for (const series of document.Results.series)
          if (series.seriesID === "CUUR0000SA0")
            series.data = series.data.filter((row) => !(row.year === "2026" && row.period === "M07"));
      }
      const body = Buffer.from(JSON.stringify(document));
      response.writeHead(200, { "content-type": recorded!.contentType, "content-length": String(body.length) });
      response.end(body);
    });
    env = { ...standin.env, SERVICE_INGEST_RETRIES: "0", SERVICE_INGEST_USER_AGENT: "due-run-test (test@example.org)" };
    // The hourly sweep half an hour before the release: every calendar and value, July's CPI not out yet.
    const sweep = await ingestAt("2026-08-12T12:00:00Z");
    expect(sweep.status, sweep.stderr).toBe(0);
  });
  afterAll(async () => {
    await service?.close();
    await standin?.close();
    removeTempDirs();
  });

  it("at 08:29 New York time nothing is due: exit 0, no request, one line naming the next release", async () => {
    const run = await ingestAt("2026-08-12T12:29:00Z", ["--due"]);
    expect(run.status).toBe(0);
    expect(run.requests).toEqual([]);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`nothing due until ${SCHEDULED_AT}, bls-consumer-price-index (Consumer Price Index)\n`);
  });

  it("a due run that finds another run holding the lock exits 0 and says so, asking nothing", async () => {
    // This test process stands for the run holding the lock: a live process whose id the lock file records.
    const lock = join(dataDir, "ingest.lock");
    writeFileSync(lock, String(process.pid));
    try {
      const run = await ingestAt(SCHEDULED_AT, ["--due"]);
      expect(run.status).toBe(0);
      expect(run.requests).toEqual([]);
      expect(run.stderr).toBe(
        `another ingestion run (pid ${process.pid}) is in progress for this data directory; the due releases are asked for by the next run\n`,
      );
    } finally {
      rmSync(lock, { force: true });
    }
  });

  it("--due refuses --from-archive and sources it never asks, as usage errors (exit 2)", async () => {
    const archive = await ingestAt(SCHEDULED_AT, ["--due", "--from-archive", dataDir]);
    expect(archive.status).toBe(2);
    expect(archive.stderr).toContain("error: option '--due' cannot be used with option '--from-archive <dir>'");
    const feed = await ingestAt(SCHEDULED_AT, ["--due", "--source", "bls-api", "--source", "bls-news-feed"]);
    expect(feed.status).toBe(2);
    expect(feed.stderr).toContain(
      "error: --due asks only the observation APIs (bls-api, eurostat-sdmx, ecb-data); --source bls-news-feed is not one",
    );
    expect([...archive.requests, ...feed.requests]).toEqual([]);
  });

  it("at 08:30 BLS asks to wait 10 s (429, Retry-After): the next minute's run does not ask it before then", async () => {
    throttleNext = true;
    const throttled = await ingestAt(SCHEDULED_AT, ["--due"]);
    expect(throttled.status).toBe(1);
    expect(throttled.requests).toHaveLength(1);
    expect(throttled.stderr).toContain("answered HTTP 429, asking to wait 10 s (Retry-After)");
    const waiting = await ingestAt("2026-08-12T12:30:05Z", ["--due"]);
    expect(waiting.status).toBe(0);
    expect(waiting.requests).toEqual([]);
    expect(waiting.stderr).toMatch(
      /^nothing asked: bls-consumer-price-index is due but bls-api asked to wait until 2026-08-12T12:30:1\d\.\d{3}Z \(Retry-After\); it stays due until 2026-08-12T14:30:00Z\n$/,
    );
  });

  it("at 08:30:15, before BLS has published, asks the BLS API for the CPI series alone; the release stays due", async () => {
    const run = await ingestAt("2026-08-12T12:30:15Z", ["--due"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST ${PUBLISHER_PATHS.blsApi}`,
    ]);
    expect(JSON.parse(run.requests[0]!.body).seriesid).toEqual(["CUSR0000SA0", "CUUR0000SA0"]);
    expect(run.stdout).toContain(
      "release bls-consumer-price-index not in yet: asked again by the next run until 2026-08-12T14:30:00Z",
    );
    // Nothing new, so the index is not rebuilt: a due run every minute does not republish it every minute. Only the
    // BLS API's check is published again: it failed in the throttled run before and succeeded now.
    expect(run.stderr).toContain("nothing new: the index is not rebuilt");
    expect(run.stdout).toMatch(/^run run_\S+: succeeded, source checks published$/m);
  });

  it("at 08:31 asks again, finds the figures published at 08:30:20 (within 60 s of it) and serves them", async () => {
    const run = await ingestAt("2026-08-12T12:31:00Z", ["--due"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST ${PUBLISHER_PATHS.blsApi}`,
    ]);
    const found = /^release bls-consumer-price-index found at (\S+), (\d+) s after its scheduled (\S+)$/m.exec(
      run.stdout,
    );
    expect(found, run.stdout).not.toBeNull();
    const foundAt = Date.parse(found![1]!);
    expect(foundAt - PUBLISHED_AT).toBeGreaterThanOrEqual(0);
    expect(foundAt - PUBLISHED_AT).toBeLessThanOrEqual(60_000);
    expect(found![3]).toBe("2026-08-12T12:30:00.000Z");
    expect(Number(found![2])).toBe(Math.round((foundAt - Date.parse(SCHEDULED_AT)) / 1000));
    expect(run.stdout).toMatch(/^run run_\S+: succeeded, index published$/m);

    service = await startService({ seedDataDir: dataDir });
    const observations = await service.request(
      "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa&from=2026-07&to=2026-07",
    );
    expect(observations.status).toBe(200);
    expect(observations.body.data.observations).toMatchObject([{ referencePeriod: "2026-07", value: JULY_CPI }]);
    // The figures confirm the event as published today: detected by this run, with the value as evidence.
    const get = credentialedClient(service);
    const events = await get("/api/v1/economics/events?from=2026-08-12&to=2026-08-13&release=bls-consumer-price-index");
    expect(events.status).toBe(200);
    const [event] = events.body.data.entries;
    expect(event).toMatchObject({
      scheduledAt: "2026-08-12T12:30:00.000Z",
      referencePeriod: { code: "2026-07" },
      publication: { confirmed: true, detectedAt: found![1], releasedAt: "2026-08-12T12:30:00.000Z" },
    });
    // (The event's `values` follow its first series, the seasonally adjusted index, which the recordings hold for 2021 only.)
    expect(event.publication.evidence).toContainEqual(expect.objectContaining({ kind: "VERIFIED_VALUE" }));

    // The release's latency, by the source of its figures.
    const operator = service.createKey(["operator"]);
    const metrics = await fetch(`${service.url}/api/v1/admin/metrics`, {
      headers: { authorization: `Bearer ${operator}` },
    }).then((response) => response.text());
    expect(metrics).toMatch(/^service_release_latency_seconds_count\{source="bls-api"\} 1$/m);
    expect(metrics).toMatch(/^service_release_latency_seconds_bucket\{le="30",source="bls-api"\} 0$/m);
    expect(metrics).toMatch(/^service_release_latency_seconds_bucket\{le="120",source="bls-api"\} 1$/m);
  });

  it("at 08:32, the figures in, nothing is due again until the next release", async () => {
    const run = await ingestAt("2026-08-12T12:32:00Z", ["--due"]);
    expect(run.status).toBe(0);
    expect(run.requests).toEqual([]);
    expect(run.stderr).toBe(
      "nothing due until 2026-08-13T12:30:00Z, bls-producer-price-index (Producer Price Index)\n",
    );
  });
});
