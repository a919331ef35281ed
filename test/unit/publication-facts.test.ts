import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { INDEX_DDL } from "../../schemas/index-ddl.ts";
import { credentialedFreshnessMeta } from "../../server/economics/freshness.ts";
import { publicationFacts } from "../../server/storage/index-storage.ts";

/** An index published before `dataRebuiltAt` existed states only when it was published: its data was rebuilt then. */
describe("publication facts of an index older than dataRebuiltAt", () => {
  it("reads the missing fact as its publication, and dates the data by it", () => {
    const db = new Database(":memory:");
    db.exec(INDEX_DDL);
    const setFact = db.prepare("INSERT INTO publication (key, value) VALUES (?, ?)");
    setFact.run("publishedAt", "2026-11-28T06:00:00.000Z");
    setFact.run("lastIngestedAt", "2026-11-28T06:00:00.000Z");
    setFact.run("lastSuccessfulIngestionAt", "2026-11-28T06:00:00.000Z");
    const facts = publicationFacts(db);
    expect(facts.dataRebuiltAt).toBe("2026-11-28T06:00:00.000Z");
    expect(credentialedFreshnessMeta(facts).dataUpdatedAt).toBe("2026-11-28T06:00:00.000Z");
    // A checks-only republish keeps the data's time apart from its own.
    setFact.run("dataRebuiltAt", "2026-11-28T06:00:00.000Z");
    db.prepare("UPDATE publication SET value = ? WHERE key = 'publishedAt'").run("2026-11-29T06:00:00.000Z");
    expect(credentialedFreshnessMeta(publicationFacts(db)).dataUpdatedAt).toBe("2026-11-28T06:00:00.000Z");
    db.close();
  });
});
