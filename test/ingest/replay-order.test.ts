import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FETCH_ORDER_FILE, recordedFetches } from "../../cli/ingest/fetch-order.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { type IngestMode, runIngestion } from "../support/compiled-ingestion.ts";
import { PUBLISHER_PATHS } from "../support/publisher-paths.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { fakeClock, startService } from "../support/service.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";
import { dumpTables } from "./sqlite-dump.ts";

afterAll(removeTempDirs);

const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
const EUROSTAT = "eu-stats-release-calendar";

/** A run whose clock starts at `startIso` and moves one millisecond per reading: every document of it in one second. */
function ingest(dataDir: string, mode: IngestMode, startIso: string, only: string[] | null = null) {
  let tick = Date.parse(startIso);
  return runIngestion({ dataDir, registry, mode, only, now: () => tick++, progress: () => {} });
}

const replay = (dir: string): IngestMode => ({ kind: "archive", dir });

/** One row of a data directory's ledger. */
function storeRow<T>(dataDir: string, sql: string, ...params: unknown[]): T {
  const db = new Database(join(dataDir, "store.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

const archiveNames = (dataDir: string, source: string) =>
  readdirSync(join(dataDir, "archive", source))
    .filter((name) => !name.endsWith(".tmp"))
    .sort();

/**
 * Modified copies of the real Eurostat snapshot of 2023-08-01 (data/samples, labelled as modified here, never served as
 * Eurostat's): record 15204840 ("Unemployment", July 2023) on 2023-08-31 as recorded, and moved to 2023-09-01. It is an
 * all-day record, whose `start` time is a placeholder; 09:00Z keeps the date and makes the newer document's content
 * hash sort before the older one's, as happens to any pair of documents with probability one half.
 */
const RECORDED = readFileSync(join(SAMPLES_DIR, EUROSTAT, "eurostat-release-calendar-2023-08-01.json"));
const onAug31 = RECORDED;
const onSep1 = Buffer.from(
  RECORDED.toString("utf8")
    .split("\n")
    .map((line) =>
      line.startsWith('{"recordid":"15204840"')
        ? line.replace('"start":"2023-08-31T10:00:00Z"', '"start":"2023-09-01T09:00:00Z"')
        : line,
    )
    .join("\n"),
);
const eventOf15204840 = (dataDir: string) =>
  storeRow<{ scheduled_date: string; status: string }>(
    dataDir,
    "SELECT e.scheduled_date, e.status FROM events e JOIN event_sources s ON s.event_id = e.id WHERE s.source = ? AND s.source_event_id = '15204840'",
    EUROSTAT,
  );

describe("two Eurostat calendar snapshots fetched in the same second", () => {
  let standin: PublisherStandin;
  const live = tempDir("same-second-live");
  let fetchMode: IngestMode;

  beforeAll(async () => {
    standin = await startPublisherStandin();
    fetchMode = {
      kind: "fetch",
      hosts: standin.hosts,
      blsApiKey: null,
      http: { userAgent: "replay-order-test (test@example.org)", timeoutMs: 5000, maxBytes: 20_000_000, retries: 0 },
    };
    expect(onSep1.equals(onAug31)).toBe(false);
    standin.replace(PUBLISHER_PATHS.eurostatCalendar, onAug31, "application/json");
    expect((await ingest(live, fetchMode, "2026-11-21T06:00:00.100Z", [EUROSTAT])).outcome).toBe("succeeded");
    standin.replace(PUBLISHER_PATHS.eurostatCalendar, onSep1, "application/json");
    expect((await ingest(live, fetchMode, "2026-11-21T06:00:00.600Z", [EUROSTAT])).outcome).toBe("succeeded");
  });
  afterAll(async () => {
    await standin?.close();
  });

  it("are archived under one second, where their names sort newer first: only the fetch record keeps their order", () => {
    const names = archiveNames(live, EUROSTAT);
    expect(names).toHaveLength(2);
    expect(names.every((name) => name.startsWith("20261121T060000Z-"))).toBe(true);
    const fetches = recordedFetches(join(live, "archive")).map((fetch) => fetch.file);
    expect(fetches).toEqual([...names].reverse());
    expect(eventOf15204840(live)).toEqual({ scheduled_date: "2023-09-01", status: "RESCHEDULED" });
  });

  it("replay into an empty data directory in fetch order: the release stays moved to 09-01, and the index is the live one's", async () => {
    const again = tempDir("same-second-replay");
    expect((await ingest(again, replay(join(live, "archive")), "2026-11-22T09:00:00.000Z", [EUROSTAT])).outcome).toBe(
      "succeeded",
    );
    expect(eventOf15204840(again)).toEqual({ scheduled_date: "2023-09-01", status: "RESCHEDULED" });
    const withoutPublication = (dataDir: string) => {
      const { publication: _, source_checks: __, ...rest } = dumpTables(join(dataDir, "index.sqlite"));
      return rest;
    };
    expect(withoutPublication(again)).toEqual(withoutPublication(live));
    // The replayed data directory records the same fetches, so it replays the same way in turn.
    expect(readFileSync(join(again, "archive", FETCH_ORDER_FILE), "utf8")).toBe(
      readFileSync(join(live, "archive", FETCH_ORDER_FILE), "utf8"),
    );
  });

  it("an archive without its fetch record (an older one) still replays, in name order: here the older snapshot last", async () => {
    const older = tempDir("same-second-older-archive");
    cpSync(join(live, "archive"), older, { recursive: true });
    rmSync(join(older, FETCH_ORDER_FILE));
    const replayed = tempDir("same-second-older-replay");
    const summary = await ingest(replayed, replay(older), "2026-11-22T09:00:00.000Z", [EUROSTAT]);
    expect(summary.sources.find((source) => source.source === EUROSTAT)).toMatchObject({ ok: true, documents: 2 });
    // The documents carry their fetch second from their names, and the second applied moves the release back.
    expect(eventOf15204840(replayed)).toEqual({ scheduled_date: "2023-08-31", status: "RESCHEDULED" });
    expect(
      storeRow<{ first_seen_at: string }>(
        replayed,
        "SELECT first_seen_at FROM event_sources WHERE source_event_id = '15204840'",
      ).first_seen_at,
    ).toBe("2026-11-21T06:00:00.000Z");
  });

  it("a publisher going back to an earlier snapshot is replayed too: the same content fetched again applies at its place", async () => {
    standin.replace(PUBLISHER_PATHS.eurostatCalendar, onAug31, "application/json");
    expect((await ingest(live, fetchMode, "2026-11-21T07:00:00.000Z", [EUROSTAT])).outcome).toBe("succeeded");
    expect(eventOf15204840(live)).toMatchObject({ scheduled_date: "2023-08-31" });
    expect(archiveNames(live, EUROSTAT)).toHaveLength(2);
    expect(recordedFetches(join(live, "archive"))).toHaveLength(3);

    const again = tempDir("refetch-replay");
    const summary = await ingest(again, replay(join(live, "archive")), "2026-11-22T09:00:00.000Z", [EUROSTAT]);
    expect(summary.sources[0]!.counts).toMatchObject({ received: 3 * 482 });
    expect(summary.sources[0]!.counts.known).toBeUndefined();
    expect(eventOf15204840(again)).toMatchObject({ scheduled_date: "2023-08-31" });

    // Replayed into itself, the archive changes nothing and records no fetch twice.
    const before = readFileSync(join(live, "archive", FETCH_ORDER_FILE), "utf8");
    const itself = await ingest(live, replay(join(live, "archive")), "2026-11-22T10:00:00.000Z", [EUROSTAT]);
    expect(itself.sources[0]!.counts).toMatchObject({ known: 3 });
    expect(readFileSync(join(live, "archive", FETCH_ORDER_FILE), "utf8")).toBe(before);
  });
});

describe("the sample archive replayed from a data directory's own archive", () => {
  const first = tempDir("samples-live");
  const second = tempDir("samples-replayed");

  beforeAll(async () => {
    expect((await ingest(first, replay(SAMPLES_DIR), "2026-11-21T06:00:00.000Z")).outcome).toBe("succeeded");
    expect((await ingest(second, replay(join(first, "archive")), "2026-11-22T06:00:00.000Z")).outcome).toBe(
      "succeeded",
    );
  });

  it("holds calendars whose archive names sort against their fetch order (the two BLS schedules)", () => {
    const fetched = recordedFetches(join(first, "archive")).filter(
      (fetch) => fetch.source === "labour-stats-release-schedule",
    );
    expect(fetched.map((fetch) => fetch.url)).toEqual([
      "file:bls-schedule-2023-2024.ics",
      "file:bls-schedule-2025-2026.ics",
    ]);
    expect(archiveNames(first, "labour-stats-release-schedule")).toEqual(fetched.map((fetch) => fetch.file).reverse());
    expect(
      recordedFetches(join(first, "archive"))
        .filter((fetch) => fetch.source === "central-bank-meetings-calendar")
        .map((fetch) => fetch.url),
    ).toEqual(["file:ecb-govc-meetings-2023-06-02.derived.ics", "file:ecb-govc-meetings-2026-05-01.derived.ics"]);
  });

  it("serves identical answers from both data directories", async () => {
    const clock = fakeClock("2026-11-23T12:00:00Z");
    const services = await Promise.all([first, second].map((seedDataDir) => startService({ seedDataDir, clock })));
    try {
      const [a, b] = services as [Awaited<ReturnType<typeof startService>>, Awaited<ReturnType<typeof startService>>];
      const keyA = a.createKey(["economics:read"]);
      const keyB = b.createKey(["economics:read"]);
      const paths = [
        "/api/v1/economics/events?from=2025-01-01&to=2025-12-31&limit=500",
        "/api/v1/economics/events?from=2026-01-01&to=2026-12-31&limit=500&tz=Europe/Berlin",
        "/api/v1/economics/events?from=2023-06-01&to=2023-12-31&limit=500",
        "/api/v1/economics/calendar?from=2028-09-01&to=2028-12-31&limit=500",
        "/api/public/v1/economics/calendar?from=2026-10-01&to=2026-12-31&limit=200",
        "/api/public/v1/economics/releases?perSeries=5&limit=100",
        "/api/public/v1/economics/observations?series=us-unemployment-rate",
        "/api/v1/economics/series/us-nonfarm-payroll-employment/observations?vintages=all",
        "/api/public/v1/news/events?from=2025-01-01&to=2026-11-23",
      ];
      for (const path of paths) {
        const headers = path.startsWith("/api/v1/")
          ? [{ authorization: `Bearer ${keyA}` }, { authorization: `Bearer ${keyB}` }]
          : [{}, {}];
        const [answerA, answerB] = await Promise.all([
          a.request(path, { headers: headers[0] }),
          b.request(path, { headers: headers[1] }),
        ]);
        expect(answerA.status, path).toBe(200);
        expect(answerB.status, path).toBe(200);
        expect(answerB.body.data, path).toEqual(answerA.body.data);
      }
    } finally {
      await Promise.all(services.map((service) => service.close()));
    }
  });
});
