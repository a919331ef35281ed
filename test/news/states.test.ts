import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsId } from "../../cli/ingest/index/publish-news.ts";
import type { IngestSummary } from "../../cli/ingest/run-ingestion.ts";
import { newsUpdatedAt } from "../../server/news/news-reader.ts";
import { type AtomEntry, archiveWith, atomFeed, indexNews, ingest, removeTempDirs, tempDir } from "./news-support.ts";

afterAll(removeTempDirs);

/**
 * "state says whether the announcement is new, updated or withdrawn at the source": successive snapshots of the BLS feed,
 * each replayed as its own run at its own time, read back from the published index.
 */

const ARCHIVES = "https://www.bls.gov/news.release/archives/";
const A: AtomEntry = {
  id: `${ARCHIVES}cpi_03112026.htm`,
  title: "Consumer Price Index - February 2026",
  published: "2026-03-11T08:30:00-04:00",
};
const A_RETITLED: AtomEntry = { ...A, title: "Consumer Price Index - February 2026 (corrected)" };
const B: AtomEntry = {
  id: `${ARCHIVES}empsit_02112026.htm`,
  title: "The Employment Situation - January 2026",
  published: "2026-02-11T08:30:00-05:00",
};
const C: AtomEntry = {
  id: `${ARCHIVES}cpi_01132026.htm`,
  title: "Consumer Price Index - December 2025",
  published: "2026-01-13T08:30:00-05:00",
};
const C_MOVED: AtomEntry = { ...C, url: "https://www.bls.gov/news.release/cpi.htm" };
const D: AtomEntry = {
  id: `${ARCHIVES}empsit_12162025.htm`,
  title: "The Employment Situation - November 2025",
  published: "2025-12-16T07:51:00-05:00",
};
const E: AtomEntry = {
  id: `${ARCHIVES}cpi_04102026.htm`,
  title: "Consumer Price Index - March 2026",
  published: "2026-04-10T08:30:00-04:00",
};

const T1 = "2026-04-01T06:00:00.000Z";
const T2 = "2026-04-02T06:00:00.000Z";
const T3 = "2026-04-03T06:00:00.000Z";
const T3_EMPTY = "2026-04-03T12:00:00.000Z";
const T4 = "2026-04-11T06:00:00.000Z";
const T5 = "2026-04-12T06:00:00.000Z";

interface Seen {
  state: string;
  contentChangedAt: string;
  id: string;
  title: string;
  url: string;
}

describe("announcement states across snapshots of one feed", () => {
  const dataDir = tempDir("states");
  const after: Record<string, { summary: IngestSummary; items: Map<string, Seen>; updatedAt: string | null }> = {};

  async function run(at: string, entries: AtomEntry[]) {
    const archive = archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed(entries) } }, "empty");
    const summary = await ingest(dataDir, archive, at, ["bls-news-feed"]);
    expect(summary.outcome, JSON.stringify(summary.sources)).toBe("succeeded");
    const items = new Map(
      indexNews(dataDir).map((row) => [
        row.record.url === C_MOVED.url ? C.id : (row.record.url as string),
        {
          state: row.state,
          contentChangedAt: row.content_changed_at,
          id: row.id,
          title: row.record.title,
          url: row.record.url,
        },
      ]),
    );
    for (const row of indexNews(dataDir)) expect(row.record.state).toBe(row.state);
    const index = new Database(join(dataDir, "index.sqlite"), { readonly: true });
    const updatedAt = newsUpdatedAt(index);
    index.close();
    after[at] = { summary, items, updatedAt };
  }
  const counts = (at: string) => after[at]!.summary.sources[0]!.counts;
  const item = (at: string, entry: AtomEntry) => after[at]!.items.get(entry.id)!;

  beforeAll(async () => {
    await run(T1, [A, B, C, D]);
    await run(T2, [A_RETITLED, C, D]);
    await run(T3, [A_RETITLED, C, D]);
    await run(T3_EMPTY, []);
    await run(T4, [E, A_RETITLED, C_MOVED]);
    await run(T5, [E, A_RETITLED, B, C_MOVED]);
  });

  it("first sight: every item NEW, its content changed at the run", () => {
    for (const entry of [A, B, C, D]) expect(item(T1, entry)).toMatchObject({ state: "NEW", contentChangedAt: T1 });
    expect(counts(T1)).toMatchObject({ received: 4, new: 4, updated: 0, withdrawn: 0 });
  });

  it("a changed title makes the item UPDATED", () => {
    expect(item(T2, A)).toMatchObject({ state: "UPDATED", contentChangedAt: T2, title: A_RETITLED.title });
    expect(counts(T2)).toMatchObject({ new: 0, updated: 1 });
  });

  it("an item missing from between items the feed still lists (newer and older ones) is WITHDRAWN, and stays served as such", () => {
    expect(item(T2, B)).toMatchObject({ state: "WITHDRAWN", contentChangedAt: T2, title: B.title });
    expect(counts(T2)).toMatchObject({ withdrawn: 1 });
  });

  it("unchanged items keep their state and their content time", () => {
    expect(item(T2, C)).toMatchObject({ state: "NEW", contentChangedAt: T1 });
    expect(item(T2, D)).toMatchObject({ state: "NEW", contentChangedAt: T1 });
  });

  it("an identical snapshot changes nothing: no state, no content time, no dataUpdatedAt moves", () => {
    expect(counts(T3)).toMatchObject({ received: 3, new: 0, updated: 0, withdrawn: 0 });
    expect([...after[T3]!.items.entries()]).toEqual([...after[T2]!.items.entries()]);
    expect(after[T2]!.updatedAt).toBe(T2);
    expect(after[T3]!.updatedAt).toBe(T2);
  });

  it("an empty snapshot withdraws nothing", () => {
    expect(counts(T3_EMPTY)).toMatchObject({ received: 0, withdrawn: 0 });
    expect([...after[T3_EMPTY]!.items.entries()]).toEqual([...after[T2]!.items.entries()]);
    expect(after[T3_EMPTY]!.updatedAt).toBe(T2);
  });

  it("an older item rolling off the end of the feed keeps its state and content time", () => {
    expect(item(T4, D)).toMatchObject({ state: "NEW", contentChangedAt: T1 });
    expect(item(T5, D)).toMatchObject({ state: "NEW", contentChangedAt: T1 });
  });

  it("a withdrawn item still missing is not withdrawn again: its content time stays", () => {
    expect(item(T4, B)).toMatchObject({ state: "WITHDRAWN", contentChangedAt: T2 });
    expect(counts(T4)).toMatchObject({ withdrawn: 0 });
  });

  it("a changed link makes the item UPDATED; a new item is NEW; dataUpdatedAt moves to that run", () => {
    expect(item(T4, C)).toMatchObject({ state: "UPDATED", contentChangedAt: T4, url: C_MOVED.url });
    expect(item(T4, E)).toMatchObject({ state: "NEW", contentChangedAt: T4 });
    expect(counts(T4)).toMatchObject({ new: 1, updated: 1 });
    expect(after[T4]!.updatedAt).toBe(T4);
  });

  it("a withdrawn item that reappears is UPDATED", () => {
    expect(item(T5, B)).toMatchObject({ state: "UPDATED", contentChangedAt: T5 });
    expect(counts(T5)).toMatchObject({ new: 0, updated: 1, withdrawn: 0 });
    expect(item(T5, A)).toMatchObject({ state: "UPDATED", contentChangedAt: T2 });
    expect(item(T5, C)).toMatchObject({ state: "UPDATED", contentChangedAt: T4 });
    expect(after[T5]!.updatedAt).toBe(T5);
  });

  it("news ids are stable across runs, titles and data directories, one per feed item", async () => {
    for (const entry of [A, B, C, D]) {
      const ids = [T1, T2, T3, T4, T5].map((at) => item(at, entry).id);
      expect(new Set(ids).size, entry.id).toBe(1);
      expect(ids[0]).toBe(newsId("bls-news-feed", entry.id));
    }
    const ids = [A, B, C, D, E].map((entry) => item(T5, entry).id);
    expect(new Set(ids).size).toBe(5);
    const elsewhere = tempDir("states-elsewhere");
    await ingest(
      elsewhere,
      archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed([A_RETITLED, B]) } }, "empty"),
      "2027-01-01T00:00:00.000Z",
      ["bls-news-feed"],
    );
    const again = new Map(indexNews(elsewhere).map((row) => [row.record.url as string, row.id]));
    expect(again.get(A.id)).toBe(item(T1, A).id);
    expect(again.get(B.id)).toBe(item(T1, B).id);
  });

  it("a changed update time alone makes the item UPDATED", async () => {
    const dir = tempDir("states-updated");
    const stamped = { ...A, updated: "2026-03-11T08:30:00-04:00" };
    const runOnce = async (at: string, entry: AtomEntry) => {
      await ingest(dir, archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed([entry]) } }, "empty"), at, [
        "bls-news-feed",
      ]);
      return indexNews(dir)[0]!;
    };
    expect((await runOnce(T1, stamped)).state).toBe("NEW");
    expect((await runOnce(T2, stamped)).state).toBe("NEW");
    const changed = await runOnce(T3, { ...stamped, updated: "2026-03-12T10:00:00-04:00" });
    expect(changed).toMatchObject({ state: "UPDATED", content_changed_at: T3 });
  });

  it("an item newer than every item of a snapshot is not WITHDRAWN (the snapshot may predate it), until a later item is listed without it", async () => {
    const dir = tempDir("states-newest");
    const runOnce = async (at: string, entries: AtomEntry[]) => {
      const summary = await ingest(
        dir,
        archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed(entries) } }, "empty"),
        at,
        ["bls-news-feed"],
      );
      expect(summary.outcome).toBe("succeeded");
      return {
        withdrawn: summary.sources[0]!.counts.withdrawn,
        states: new Map(indexNews(dir).map((row) => [row.record.url as string, row.state])),
      };
    };
    await runOnce(T4, [E, A, C]);
    // A copy of the feed taken before E was published (a stale cache, an older archived document): E is not in it.
    const stale = await runOnce(T5, [A, C]);
    expect(stale.withdrawn).toBe(0);
    expect(stale.states.get(E.id)).toBe("NEW");
    // A later snapshot lists an item newer than E and still not E: now E is missing from between listed items.
    const F: AtomEntry = {
      id: `${ARCHIVES}empsit_05082026.htm`,
      title: "The Employment Situation - April 2026",
      published: "2026-05-08T08:30:00-04:00",
    };
    const later = await runOnce("2026-05-09T06:00:00.000Z", [F, A, C]);
    expect(later.withdrawn).toBe(1);
    expect(later.states.get(E.id)).toBe("WITHDRAWN");
    expect([A, C, F].map((entry) => later.states.get(entry.id))).toEqual(["NEW", "NEW", "NEW"]);
  });

  it("an item published at the same instant as the oldest listed one is on the boundary of the feed's window: not WITHDRAWN", async () => {
    const dir = tempDir("states-boundary");
    const twin: AtomEntry = { ...C, id: `${ARCHIVES}realer_01132026.htm`, title: "Real Earnings - December 2025" };
    await ingest(dir, archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed([A, B, C, twin]) } }, "empty"), T1, [
      "bls-news-feed",
    ]);
    const summary = await ingest(
      dir,
      archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed([E, A, B, C]) } }, "empty"),
      T4,
      ["bls-news-feed"],
    );
    expect(summary.sources[0]!.counts.withdrawn).toBe(0);
    expect(indexNews(dir).find((row) => row.record.url === twin.id)!.state).toBe("NEW");
  });

  it("an item the feed still lists but the adapter skips (its link lost) is not WITHDRAWN", async () => {
    const dir = tempDir("states-skipped");
    await ingest(dir, archiveWith({ "bls-news-feed": { "bls_latest.xml": atomFeed([A, E]) } }, "empty"), T4, [
      "bls-news-feed",
    ]);
    const linkless = atomFeed([A, E]).replace(`<link rel="alternate" href="${E.id}"/>`, "");
    const summary = await ingest(dir, archiveWith({ "bls-news-feed": { "bls_latest.xml": linkless } }, "empty"), T5, [
      "bls-news-feed",
    ]);
    expect(summary.sources[0]!.counts.withdrawn ?? 0).toBe(0);
    expect(indexNews(dir).map((row) => row.state)).toEqual(["NEW", "NEW"]);
  });
});
