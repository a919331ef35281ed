import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

afterEach(removeTempDirs);

const BLS_SCHEDULE = "labour-stats-release-schedule";
const STATISTICS_CALENDAR = "central-bank-statistics-calendar";

/**
 * A copy of the sample archive whose newest document of one source is cut short, as a dropped connection leaves it.
 * Modified copies of real recorded documents, made in the test; nothing of it is presented as a publisher's.
 */
function archiveWithTruncated(source: string, keepFraction: number): string {
  const archive = tempDir("truncated-archive");
  cpSync(SAMPLES_DIR, archive, { recursive: true });
  const folder = join(archive, source);
  const newest = readdirSync(folder)
    .filter((name) => !name.endsWith(".fetch.json"))
    .sort()
    .at(-1)!;
  const whole = readFileSync(join(folder, newest));
  writeFileSync(join(folder, newest), whole.subarray(0, Math.floor(whole.length * keepFraction)));
  return archive;
}

function eventStatuses(dataDir: string, source: string): Map<string, string> {
  const store = new Database(join(dataDir, "store.sqlite"), { readonly: true });
  try {
    const rows = store
      .prepare(
        "SELECT e.id AS id, e.status AS status FROM events e JOIN event_sources s ON s.event_id = e.id WHERE s.source = ?",
      )
      .all(source) as { id: string; status: string }[];
    return new Map(rows.map((row) => [row.id, row.status]));
  } finally {
    store.close();
  }
}

describe("a truncated calendar document", () => {
  for (const [source, fraction] of [
    [BLS_SCHEDULE, 0.4],
    [STATISTICS_CALENDAR, 0.97],
  ] as const) {
    it(`${source} cut at ${fraction * 100}% is an incomplete source, and its lost events are not cancelled`, async () => {
      const dataDir = tempDir("truncated-data");
      mkdirSync(dataDir, { recursive: true });
      const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
      let tick = Date.parse("2026-11-21T06:00:00Z");
      const now = () => tick++;
      const whole = await runIngestion({
        dataDir,
        registry,
        mode: { kind: "archive", dir: SAMPLES_DIR },
        only: [source],
        now,
        progress: () => {},
      });
      expect(whole.outcome).toBe("succeeded");
      const before = eventStatuses(dataDir, source);
      expect(before.size).toBeGreaterThan(0);

      const cut = await runIngestion({
        dataDir,
        registry,
        mode: { kind: "archive", dir: archiveWithTruncated(source, fraction) },
        only: [source],
        now,
        progress: () => {},
      });
      expect(cut.sources.find((entry) => entry.source === source)).toMatchObject({ ok: false });
      expect(cut.outcome).not.toBe("succeeded");
      expect(eventStatuses(dataDir, source)).toEqual(before);
    });
  }
});
