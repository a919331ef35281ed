import { appendFileSync, copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordedFetches } from "../../cli/ingest/fetch-order.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "../ingest/cli-process.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";

/**
 * Issue 39, item 5: one byte appended to the oldest Eurostat calendar in a data directory's archive (a MODIFIED copy of
 * the real 2023-07-19 snapshot, so a new content hash: never applied) and that archive replayed into the same data
 * directory. The snapshot is older than the 2023-08-01 one already applied, which lists records it does not: an older
 * snapshot never overrides what a newer one said, so nothing is cancelled, moved or renamed by it.
 */
const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
const EUROSTAT = "eu-stats-release-calendar";

async function replay(dataDir: string, dir: string, startIso: string) {
  let tick = Date.parse(startIso);
  return runIngestion({
    dataDir,
    registry,
    mode: { kind: "archive", dir },
    only: [EUROSTAT],
    now: () => tick++,
    progress: () => {},
  });
}

function eurostatEvents(dataDir: string): Record<string, { status: string; date: string; title: string }> {
  const db = new Database(join(dataDir, "store.sqlite"), { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT s.source_event_id AS id, e.status, e.scheduled_date AS date, e.title FROM events e
        JOIN event_sources s ON s.event_id = e.id WHERE s.source = ?`)
      .all(EUROSTAT) as { id: string; status: string; date: string; title: string }[];
    return Object.fromEntries(rows.map(({ id, ...rest }) => [id, rest]));
  } finally {
    db.close();
  }
}

describe("a re-recorded old calendar snapshot replayed after newer ones", () => {
  const dataDir = tempDir("older-calendar");
  let before: ReturnType<typeof eurostatEvents>;

  beforeAll(async () => {
    expect((await replay(dataDir, SAMPLES_DIR, "2035-01-01T00:00:00Z")).outcome).toBe("succeeded");
    before = eurostatEvents(dataDir);
    const archive = join(dataDir, "archive");
    // The oldest Eurostat snapshot the archive recorded: the one fetched first.
    const oldest = recordedFetches(archive).find((fetch) => fetch.source === EUROSTAT)!;
    expect(readdirSync(join(archive, EUROSTAT))).toContain(oldest.file);
    appendFileSync(join(archive, EUROSTAT, oldest.file), "\n");
  });
  afterAll(() => removeTempDirs());

  it("cancels, moves and renames nothing the newer snapshots keep", async () => {
    const cancelledBefore = Object.values(before).filter((event) => event.status === "CANCELLED").length;
    const summary = await replay(dataDir, join(dataDir, "archive"), "2035-02-01T00:00:00Z");
    expect(summary.outcome).toBe("succeeded");
    const after = eurostatEvents(dataDir);
    expect(Object.values(after).filter((event) => event.status === "CANCELLED").length).toBe(cancelledBefore);
    expect(after).toEqual(before);
  });
});

/** An archive folder holding the named real Eurostat snapshots of the samples, each with its sidecar (fetch time). */
function archiveOf(names: string[]): string {
  const dir = tempDir("eurostat-snapshots");
  mkdirSync(join(dir, EUROSTAT));
  for (const name of names)
    for (const file of [name, `${name}.fetch.json`])
      copyFileSync(join(SAMPLES_DIR, EUROSTAT, file), join(dir, EUROSTAT, file));
  return dir;
}

describe("two real Eurostat snapshots applied newer first", () => {
  const OLDER = "eurostat-release-calendar-2023-07-19.json";
  const NEWER = "eurostat-release-calendar-2023-08-01.json";
  afterAll(() => removeTempDirs());

  it("end as applied in fetch order: the record the newer one dropped is cancelled, the newer dates stand", async () => {
    const inOrder = tempDir("eurostat-in-order");
    expect((await replay(inOrder, archiveOf([OLDER, NEWER]), "2035-01-01T00:00:00Z")).outcome).toBe("succeeded");
    const newerFirst = tempDir("eurostat-newer-first");
    expect((await replay(newerFirst, archiveOf([NEWER]), "2035-01-01T00:00:00Z")).outcome).toBe("succeeded");
    expect((await replay(newerFirst, archiveOf([OLDER]), "2035-01-02T00:00:00Z")).outcome).toBe("succeeded");
    const expected = eurostatEvents(inOrder);
    // The snapshots differ: a reschedule (15586146), a removal, title edits.
    expect(Object.values(expected).filter((event) => event.status === "CANCELLED").length).toBe(1);
    expect(expected["15586146"]).toMatchObject({ date: "2023-08-17" });
    // What each snapshot says of a record: its date, and whether it is still listed. (The history only an in-order
    // application sees, a move's RESCHEDULED and the title first seen, is not rebuilt from an older snapshot read late.)
    const said = (events: ReturnType<typeof eurostatEvents>) =>
      Object.fromEntries(
        Object.entries(events).map(([id, event]) => [
          id,
          { date: event.date, cancelled: event.status === "CANCELLED" },
        ]),
      );
    expect(said(eurostatEvents(newerFirst))).toEqual(said(expected));
  });
});
