import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { archiveWith, ingest, removeTempDirs, tempDir } from "../news/news-support.ts";

afterAll(removeTempDirs);

const facts = (dataDir: string) => {
  const db = new Database(join(dataDir, "index.sqlite"), { readonly: true });
  try {
    return Object.fromEntries(
      (db.prepare("SELECT key, value FROM publication").all() as { key: string; value: string | null }[]).map((row) => [
        row.key,
        row.value,
      ]),
    );
  } finally {
    db.close();
  }
};

describe("the economics freshness fact (lastSuccessfulIngestionAt)", () => {
  const broken = { "bls-news-feed": { "bls_latest.xml": "<html>not a feed</html>" } };

  it("moves when every economics source succeeded, even though an announcement feed failed", async () => {
    const dir = tempDir("freshness");
    const summary = await ingest(dir, archiveWith(broken), "2026-11-21T06:00:00.000Z");
    expect(summary.outcome).toBe("partial");
    expect(facts(dir)).toMatchObject({
      lastIngestedAt: "2026-11-21T06:00:00.000Z",
      lastSuccessfulIngestionAt: "2026-11-21T06:00:00.000Z",
    });
  });

  it("stays at the last economics success when an economics source fails, and is not moved by a news-only run", async () => {
    const dir = tempDir("freshness-economics");
    await ingest(dir, archiveWith({}), "2026-11-20T06:00:00.000Z");
    await ingest(dir, archiveWith({ "ecb-data": { "broken.csv": "not,csvdata\n" } }), "2026-11-21T06:00:00.000Z");
    expect(facts(dir)).toMatchObject({
      lastIngestedAt: "2026-11-21T06:00:00.000Z",
      lastSuccessfulIngestionAt: "2026-11-20T06:00:00.000Z",
    });
    await ingest(dir, archiveWith({}), "2026-11-22T06:00:00.000Z", ["bls-news-feed"]);
    expect(facts(dir)).toMatchObject({
      lastIngestedAt: "2026-11-22T06:00:00.000Z",
      lastSuccessfulIngestionAt: "2026-11-20T06:00:00.000Z",
    });
  });

  it("is not moved by a run of some economics sources (--source, --due), while another has not succeeded since", async () => {
    const dir = tempDir("freshness-some-sources");
    await ingest(dir, archiveWith({}), "2026-11-20T06:00:00.000Z");
    await ingest(dir, archiveWith({ "ecb-data": { "broken.csv": "not,csvdata\n" } }), "2026-11-21T06:00:00.000Z");
    await ingest(dir, archiveWith({}), "2026-11-22T06:00:00.000Z", ["bls-api"]);
    expect(facts(dir)).toMatchObject({
      lastIngestedAt: "2026-11-22T06:00:00.000Z",
      lastSuccessfulIngestionAt: "2026-11-20T06:00:00.000Z",
    });
    // Once the failed source has succeeded again, the fact is the oldest of the sources' latest successes (the
    // calendars' and Eurostat's, on the 21st).
    await ingest(dir, archiveWith({}), "2026-11-23T06:00:00.000Z", ["ecb-data"]);
    expect(facts(dir).lastSuccessfulIngestionAt).toBe("2026-11-21T06:00:00.000Z");
  });
});
