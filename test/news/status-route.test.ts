import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_FRESH_HOURS } from "../../schemas/limits.ts";
import { RECENT_WINDOW_MS } from "../../server/weather/upstream-health.ts";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { type FakeClock, fakeClock, type RunningService, startService } from "../support/service.ts";
import { archiveWith, ECONOMICS_FEEDS, ingest, NEWS_FEEDS, removeTempDirs, SAMPLES_DIR } from "./news-support.ts";

afterAll(removeTempDirs);

const STATUS = "/api/public/v1/status";
const MET_FEED = "met-norway-locationforecast";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const BROKEN_FEED = "<html><body><h1>Access Denied</h1><br></body></html>";
const BROKEN_ICS = "<html><body>Service unavailable</body></html>";
const breakSources = (...sources: string[]) =>
  archiveWith(
    Object.fromEntries(
      sources.map((source) => [source, { "broken.xml": source.includes("schedule") ? BROKEN_ICS : BROKEN_FEED }]),
    ),
  );

async function status(service: RunningService) {
  const answer = await service.request(STATUS);
  expect(answer.status).toBe(200);
  return answer;
}

const iso = (clock: FakeClock) => new Date(clock.now()).toISOString();

describe("GET /api/public/v1/status: weather from this instance's own upstream outcomes", () => {
  const clock = fakeClock("2026-07-24T06:00:00Z");
  let met: MetStandin;
  let service: RunningService;
  let point = 0;
  /** A point nobody asked for, so the request reaches the stand-in. */
  const weather = () =>
    service.request(`/api/public/v1/weather/current?lat=${(50 + ++point / 10).toFixed(2)}&lon=10.75`);
  const weatherDomain = async () => (await status(service)).body.data.domains.weather;

  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now });
    service = await startService({ clock, weatherBaseUrl: met.url });
  });
  afterAll(async () => {
    await service?.close();
    await met?.close();
  });

  it("is unknown before any call to the provider", async () => {
    expect(await weatherDomain()).toEqual({
      status: "unknown",
      lastReceivedDataAt: null,
      lastSuccessAt: null,
      feeds: [{ id: MET_FEED, lastReceivedDataAt: null, lastSuccessAt: null }],
    });
    expect(met.requests).toBe(0);
  });

  let succeededAt: string;

  it("is ok after a success, with when the feed last received data", async () => {
    expect((await weather()).status).toBe(200);
    succeededAt = iso(clock);
    expect(await weatherDomain()).toEqual({
      status: "ok",
      lastReceivedDataAt: succeededAt,
      lastSuccessAt: succeededAt,
      feeds: [{ id: MET_FEED, lastReceivedDataAt: succeededAt, lastSuccessAt: succeededAt }],
    });
  });

  it("is degraded after a failure among recent successes, keeping the last success time", async () => {
    clock.advance(MINUTE);
    met.setMode("server-error");
    expect((await weather()).status).toBe(503);
    expect(await weatherDomain()).toMatchObject({
      status: "degraded",
      lastReceivedDataAt: succeededAt,
      lastSuccessAt: succeededAt,
    });
  });

  it("is unavailable when every recent call failed", async () => {
    clock.advance(RECENT_WINDOW_MS + MINUTE);
    // The recent window forgot both calls, but the last one failed: still not ok.
    expect((await weatherDomain()).status).toBe("degraded");
    expect((await weather()).status).toBe(503);
    expect((await weather()).status).toBe(503);
    expect(await weatherDomain()).toMatchObject({
      status: "unavailable",
      lastReceivedDataAt: succeededAt,
      lastSuccessAt: succeededAt,
    });
  });

  it("is degraded again after one success while recent failures remain, then ok once they age out", async () => {
    met.setMode("normal");
    clock.advance(MINUTE);
    expect((await weather()).status).toBe(200);
    const recovered = iso(clock);
    expect(await weatherDomain()).toMatchObject({ status: "degraded", lastSuccessAt: recovered });
    clock.advance(RECENT_WINDOW_MS + MINUTE);
    expect((await weather()).status).toBe(200);
    expect(await weatherDomain()).toMatchObject({ status: "ok", lastSuccessAt: iso(clock) });
  });

  it("never publishes the failure counters, and is cached 30 s", async () => {
    met.setMode("server-error");
    clock.advance(MINUTE);
    await weather();
    const { text, headers, body } = await status(service);
    expect(text).not.toMatch(/recentFailures|recentAttempts|lastFailureAt|lastAttemptAt|failure/i);
    for (const domain of Object.values(body.data.domains))
      expect(Object.keys(domain as object).sort()).toEqual(["feeds", "lastReceivedDataAt", "lastSuccessAt", "status"]);
    expect(headers.get("cache-control")).toBe("public, max-age=30");
    met.setMode("normal");
  });

  it("answers without durable storage: economics and news unknown", async () => {
    const bare = await startService({ clock, durableStorage: false, weatherBaseUrl: met.url });
    try {
      const { body } = await status(bare);
      expect(body.data.domains.economics.status).toBe("unknown");
      expect(body.data.domains.news.status).toBe("unknown");
    } finally {
      await bare.close();
    }
  });

  it("reports weather unavailable when this deployment has it disabled", async () => {
    const disabled = await startService({ clock });
    try {
      expect((await status(disabled)).body.data.domains.weather).toMatchObject({
        status: "unavailable",
        lastSuccessAt: null,
      });
    } finally {
      await disabled.close();
    }
  });
});

describe("GET /api/public/v1/status: economics and news from the store's runs and source checks", () => {
  const clock = fakeClock("2026-07-24T06:00:00Z");
  let service: RunningService;
  const domains = async () => (await status(service)).body.data.domains;
  const feed = (domain: any, id: string) => domain.feeds.find((candidate: { id: string }) => candidate.id === id);
  /** Runs an ingestion at the clock's time into the service's data dir. */
  const run = async (archive: string) => {
    const at = iso(clock);
    const summary = await ingest(service.dataDir, archive, at);
    expect(summary.published).toBe(true);
    return { at, summary };
  };

  beforeAll(async () => {
    service = await startService({ clock });
  });
  afterAll(async () => {
    await service?.close();
  });

  it("is unknown for both with no index, every feed listed with nothing known", async () => {
    const { economics, news } = await domains();
    expect(economics).toEqual({
      status: "unknown",
      lastReceivedDataAt: null,
      lastSuccessAt: null,
      feeds: ECONOMICS_FEEDS.map((id) => ({ id, lastReceivedDataAt: null, lastSuccessAt: null })),
    });
    expect(news).toEqual({
      status: "unknown",
      lastReceivedDataAt: null,
      lastSuccessAt: null,
      feeds: NEWS_FEEDS.map((id) => ({ id, lastReceivedDataAt: null, lastSuccessAt: null })),
    });
  });

  let firstRun: string;

  it("is ok for both after a sample ingestion, with each feed's times", async () => {
    const { at, summary } = await run(SAMPLES_DIR);
    firstRun = at;
    expect(summary.outcome).toBe("succeeded");
    const { economics, news } = await domains();
    for (const domain of [economics, news]) {
      expect(domain).toMatchObject({ status: "ok", lastReceivedDataAt: at, lastSuccessAt: at });
      for (const one of domain.feeds) expect(one).toEqual({ id: one.id, lastReceivedDataAt: at, lastSuccessAt: at });
    }
  });

  it("news is degraded when one feed's latest check is incomplete; economics stays ok", async () => {
    clock.advance(HOUR);
    const { at, summary } = await run(breakSources("ecb-press-feed"));
    expect(summary.outcome).toBe("partial");
    const { economics, news } = await domains();
    expect(economics.status).toBe("ok");
    expect(news).toMatchObject({ status: "degraded", lastSuccessAt: at });
    // The broken document did arrive; the feed last succeeded an hour earlier.
    expect(feed(news, "ecb-press-feed")).toEqual({
      id: "ecb-press-feed",
      lastReceivedDataAt: at,
      lastSuccessAt: firstRun,
    });
    expect(feed(news, "bls-news-feed")).toEqual({ id: "bls-news-feed", lastReceivedDataAt: at, lastSuccessAt: at });
  });

  it("news is unavailable when every news feed failed; economics stays ok", async () => {
    const previous = iso(clock);
    clock.advance(HOUR);
    const { at } = await run(breakSources(...NEWS_FEEDS));
    const { economics, news } = await domains();
    expect(economics).toMatchObject({ status: "ok", lastSuccessAt: at });
    expect(news).toMatchObject({ status: "unavailable", lastReceivedDataAt: at, lastSuccessAt: previous });
  });

  it("economics is degraded when one of its sources failed; news back to ok", async () => {
    clock.advance(HOUR);
    const { at } = await run(breakSources("labour-stats-release-schedule"));
    const { economics, news } = await domains();
    expect(economics).toMatchObject({ status: "degraded", lastSuccessAt: at });
    expect(feed(economics, "labour-stats-release-schedule")).toMatchObject({ lastReceivedDataAt: at });
    expect(feed(economics, "labour-stats-release-schedule").lastSuccessAt < at).toBe(true);
    expect(news.status).toBe("ok");
  });

  it("economics is unavailable when every economics source failed", async () => {
    clock.advance(HOUR);
    await run(breakSources(...ECONOMICS_FEEDS));
    const { economics, news } = await domains();
    expect(economics.status).toBe("unavailable");
    expect(news.status).toBe("ok");
  });

  it(`stale data makes a domain degraded ${DATA_FRESH_HOURS} h after its last success`, async () => {
    clock.advance(HOUR);
    const { at } = await run(SAMPLES_DIR);
    expect((await domains()).news.status).toBe("ok");
    clock.set(new Date(Date.parse(at) + DATA_FRESH_HOURS * HOUR).toISOString());
    expect((await domains()).economics.status).toBe("ok");
    expect((await domains()).news.status).toBe("ok");
    clock.advance(1000);
    const { economics, news } = await domains();
    expect(economics).toMatchObject({ status: "degraded", lastSuccessAt: at });
    expect(news).toMatchObject({ status: "degraded", lastSuccessAt: at });
  });

  it("one domain's failures do not make the other stale: economics failing for days leaves fresh news ok", async () => {
    for (let day = 0; day < 3; day++) {
      clock.advance(24 * HOUR);
      await run(breakSources("labour-stats-release-schedule"));
    }
    clock.advance(HOUR);
    const { economics, news } = await domains();
    expect(economics.status).toBe("degraded");
    expect(news.status).toBe("ok");
    // The news route says the same of the news feeds.
    expect((await service.request("/api/public/v1/news/events")).body.meta.dataStatus).toBe("fresh");
  });

  it("a first run that was only partial: the failing news feed leaves economics ok", async () => {
    const other = await startService({ clock });
    try {
      expect((await ingest(other.dataDir, breakSources("bls-news-feed"), iso(clock))).outcome).toBe("partial");
      const { body } = await status(other);
      expect(body.data.domains.economics.status).toBe("ok");
      expect(body.data.domains.news.status).toBe("degraded");
    } finally {
      await other.close();
    }
  });
});
