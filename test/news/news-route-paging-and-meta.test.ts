import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_FRESH_HOURS } from "../../schemas/limits.ts";
import { encodeCursor } from "../../server/http/params.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import {
  expectRefused,
  HOUR,
  INGESTED_AT,
  NEWS,
  SAMPLE_TITLES,
  sampleNewsService,
  titles,
} from "./news-route-fixtures.ts";
import {
  type AtomEntry,
  archiveWith,
  atomFeed,
  ingest,
  removeTempDirs,
  SAMPLES_DIR,
  sampleDataDir,
  tempDir,
} from "./news-support.ts";

afterAll(removeTempDirs);

describe("GET /api/public/v1/news/events on the sample archive", () => {
  const { clock, get } = sampleNewsService();

  it("gives a next cursor only when more items remain", async () => {
    const exact = await get(`limit=${SAMPLE_TITLES.length}`);
    expect(titles(exact.body)).toEqual(SAMPLE_TITLES);
    expect(exact.body.meta.nextCursor).toBeNull();
    const short = await get(`limit=${SAMPLE_TITLES.length - 1}`);
    expect(titles(short.body)).toEqual(SAMPLE_TITLES.slice(0, -1));
    const rest = await get(
      `limit=${SAMPLE_TITLES.length - 1}&cursor=${encodeURIComponent(short.body.meta.nextCursor)}`,
    );
    expect(titles(rest.body)).toEqual(SAMPLE_TITLES.slice(-1));
    expect(rest.body.meta.nextCursor).toBeNull();
  });

  describe("meta", () => {
    it("dataUpdatedAt is the feeds' newest content change (this index: the first sight of every item)", async () => {
      expect((await get()).body.meta.dataUpdatedAt).toBe(INGESTED_AT);
      // Not the newest publication, and not moved by a filter that hides items.
      expect((await get("source=bls-news-feed")).body.meta.dataUpdatedAt).toBe(INGESTED_AT);
    });

    it(`dataStatus is fresh until ${DATA_FRESH_HOURS} h after the feeds' last success, stale after`, async () => {
      try {
        clock.set(new Date(Date.parse(INGESTED_AT) + DATA_FRESH_HOURS * HOUR).toISOString());
        expect((await get()).body.meta.dataStatus).toBe("fresh");
        clock.advance(1000);
        expect((await get()).body.meta.dataStatus).toBe("stale");
      } finally {
        clock.set("2026-07-25T12:00:00Z");
      }
    });
  });
});

/**
 * A later snapshot of the ECB feed: a MODIFIED copy of the real recording of 24 June 2026 (data/samples/ecb-press-feed),
 * changed here in three ways: one speech retitled, one press release from between other items removed (withdrawn at
 * the source), and the oldest item removed (rolled off the end of a feed that lists only its newest items).
 */
describe("states and dataUpdatedAt after a later snapshot of the ECB feed", () => {
  const clock = fakeClock("2026-07-25T12:00:00Z");
  let service: RunningService;
  const SECOND_RUN = "2026-07-25T06:00:00.000Z";
  const THIRD_RUN = "2026-07-25T09:00:00.000Z";
  const original = readFileSync(join(SAMPLES_DIR, "ecb-press-feed", "ecb-press-rss-2026-06-24.xml"), "utf8");

  beforeAll(async () => {
    service = await startService({ clock, seedDataDir: await sampleDataDir(INGESTED_AT) });
    const changed = original
      .replace(
        "<title> Christine Lagarde: Money in transition</title>",
        "<title> Christine Lagarde: Money in transition (corrected)</title>",
      )
      .replace(/<item><title> Iceland joins TIPS[\s\S]*?<\/item>/, "")
      .replace(/<item><title> EU structural financial indicators[\s\S]*?<\/item>/, "");
    expect(changed).toContain("Money in transition (corrected)");
    expect(changed).not.toContain("ecb.pr260624_1");
    expect(changed).not.toContain("ecb.pr260612");
    const archive = archiveWith({ "ecb-press-feed": { "ecb-press.xml": changed } });
    expect((await ingest(service.dataDir, archive, SECOND_RUN)).outcome).toBe("succeeded");
  });
  afterAll(async () => {
    await service?.close();
  });

  it("filters by state: UPDATED for the retitled speech, WITHDRAWN for the item vanished from between others, not the one rolled off", async () => {
    const updated = await service.request(`${NEWS}?state=UPDATED`);
    expect(titles(updated.body)).toEqual(["Christine Lagarde: Money in transition (corrected)"]);
    const withdrawn = await service.request(`${NEWS}?state=withdrawn`);
    expect(withdrawn.body.data.events.map((event: any) => [event.title, event.publishedAt, event.state])).toEqual([
      ["Iceland joins TIPS for instant payments", "2026-06-24T08:00:00.000Z", "WITHDRAWN"],
    ]);
    const unchanged = titles((await service.request(`${NEWS}?state=NEW`)).body);
    expect(unchanged).toHaveLength(SAMPLE_TITLES.length - 2);
    expect(unchanged).toContain("EU structural financial indicators: end of 2025");
  });

  it("moves dataUpdatedAt to the run that changed content, and not on a run that changed nothing", async () => {
    expect((await service.request(NEWS)).body.meta.dataUpdatedAt).toBe(SECOND_RUN);
    // The original recording's bytes served again, without a sidecar: read as fetched by the run (the sample's own
    // sidecar dates it 24 June, before the changed copy, and an older snapshot is no change to report now).
    const again = archiveWith({ "ecb-press-feed": { "ecb-press.xml": original } });
    const third = await ingest(service.dataDir, again, THIRD_RUN);
    expect(third.outcome).toBe("succeeded");
    // The third run (the original recording) put the speech's title and the withdrawn item back: a change again.
    expect((await service.request(NEWS)).body.meta.dataUpdatedAt).toBe(THIRD_RUN);
    expect((await service.request(`${NEWS}?state=UPDATED`)).body.data.events).toHaveLength(2);
    const fourth = await ingest(service.dataDir, again, "2026-07-25T10:00:00.000Z");
    expect(fourth.outcome).toBe("succeeded");
    const { body } = await service.request(NEWS);
    expect(body.meta.dataUpdatedAt).toBe(THIRD_RUN);
  });
});

describe("paging", () => {
  const clock = fakeClock("2026-07-24T12:00:00Z");
  let service: RunningService;
  const ARCHIVES = "https://www.bls.gov/news.release/archives/";
  const COUNT = 130;
  /** 130 announcements of unregistered releases, one a day going back from 2026-07-23. */
  const entries: AtomEntry[] = Array.from({ length: COUNT }, (_, n) => ({
    id: `${ARCHIVES}test_${String(n).padStart(3, "0")}.htm`,
    title: `County Employment and Wages - item ${n}`,
    published: new Date(Date.parse("2026-07-23T12:00:00Z") - n * 24 * HOUR).toISOString().replace(".000Z", "Z"),
  }));
  const expectedIds = entries.map((entry) => entry.id);

  beforeAll(async () => {
    const dataDir = tempDir("paging");
    const archive = archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed(entries) } }, "empty");
    expect((await ingest(dataDir, archive, "2026-07-24T06:00:00.000Z", ["bls-news-feed"])).outcome).toBe("succeeded");
    service = await startService({ clock, seedDataDir: dataDir });
  });
  afterAll(async () => {
    await service?.close();
  });
  const urls = (body: any): string[] => body.data.events.map((event: { url: string }) => event.url);

  it.each([
    ["", 20],
    ["limit=1", 1],
    ["limit=3.7", 3],
    ["limit=100", 100],
    ["limit=101", 100],
    ["limit=500", 100],
  ])("limit %s gives %i", async (query, size) => {
    const { status, body } = await service.request(`${NEWS}?${query}`);
    expect(status).toBe(200);
    expect(urls(body)).toEqual(expectedIds.slice(0, size));
    expect(body.meta.nextCursor).toEqual(expect.any(String));
  });

  it.each(["limit=0", "limit=-5", "limit=abc"])("refuses %s", async (query) => {
    await expectRefused(service, query);
  });

  it("pages through the whole window with nextCursor, no item twice or missed, in order", async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await service.request(
        `${NEWS}?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(status).toBe(200);
      seen.push(...urls(body));
      sizes.push(body.data.events.length);
      cursor = body.meta.nextCursor;
    } while (cursor !== null);
    expect(sizes).toEqual([25, 25, 25, 25, 25, 5]);
    expect(seen).toEqual(expectedIds);
  });

  it("a cursor holds its filters' offset: the same filters give the following page", async () => {
    const first = await service.request(`${NEWS}?linkStatus=UNLINKED&limit=100`);
    const second = await service.request(
      `${NEWS}?linkStatus=UNLINKED&limit=100&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`,
    );
    expect(urls(second.body)).toEqual(expectedIds.slice(100));
    expect(second.body.meta.nextCursor).toBeNull();
  });

  it("refuses an undecodable cursor and answers an empty last page past the end", async () => {
    await expectRefused(service, "cursor=not-a-cursor!");
    await expectRefused(service, `cursor=${Buffer.from("nope").toString("base64url")}`);
    const past = await service.request(`${NEWS}?cursor=${encodeCursor(1000)}`);
    expect(past.status).toBe(200);
    expect(past.body.data.events).toEqual([]);
    expect(past.body.meta.nextCursor).toBeNull();
  });
});
