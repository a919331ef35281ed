import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { archiveWith, ingest, removeTempDirs, tempDir } from "../news/news-support.ts";

afterAll(removeTempDirs);

const keptPeriods = (dataDir: string) => {
  const db = new Database(join(dataDir, "store.sqlite"), { readonly: true });
  try {
    return db
      .prepare("SELECT sha256, series_id, retrieved_at FROM value_document_periods ORDER BY sha256, series_id")
      .all() as { sha256: string; series_id: string; retrieved_at: string }[];
  } finally {
    db.close();
  }
};

describe("the value documents' periods kept for linking (value_document_periods)", () => {
  it("keep a document's first retrieval only: fetching the same bytes again later adds nothing", async () => {
    const first = tempDir("periods-first");
    const firstArchive = archiveWith({});
    await ingest(first, firstArchive, "2026-11-21T06:00:00.000Z");
    const kept = keptPeriods(first);
    expect(kept.length).toBeGreaterThan(0);

    // The same BLS documents, their sidecars stating a fetch a day later (MODIFIED: a fetch time the test states).
    const later = archiveWith({});
    const folder = join(later, "bls-api");
    for (const name of readdirSync(folder).filter((file) => file.endsWith(".fetch.json"))) {
      const sidecar = JSON.parse(readFileSync(join(folder, name), "utf8")) as { fetchedAt: string | null };
      if (sidecar.fetchedAt === null) continue;
      const fetchedAt = new Date(Date.parse(sidecar.fetchedAt) + 86_400_000).toISOString();
      writeFileSync(join(folder, name), JSON.stringify({ fetchedAt, stated: "MODIFIED for a test: a day later" }));
    }
    await ingest(first, later, "2026-11-22T06:00:00.000Z");
    expect(keptPeriods(first)).toEqual(kept);
  });
});
