import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { SAMPLES_DIR, tempDir } from "../ingest/cli-process.ts";
import { runIngestion } from "./compiled-ingestion.ts";
import { writeDatedDocument } from "./dated-documents.ts";

/**
 * Value documents replayed from an archive through the real pipeline, one run each, for the questions about a series'
 * past (as-of, every vintage). The documents are MODIFIED: built in the test, in the layout of a real recording, with
 * figures that are not the publisher's. Each name carries the day it stands for a fetch on (the archive's convention).
 */

export interface ReplayedDocument {
  /** `YYYY-MM-DD-….sdmx.csv`: the day the document stands for a fetch on. */
  name: string;
  body: string;
}

/** The slug of the euro-area HICP annual rate, the series `modifiedHicpDocument` carries. */
export const HICP_SERIES = "ea-hicp-all-items-annual-rate";

const REAL_CSV = readFileSync(join(SAMPLES_DIR, "eurostat-sdmx", "eurostat-une_rt_m.sdmx.csv"), "utf8");
const HEADER = "DATAFLOW,LAST UPDATE,freq,unit,coicop18,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS";

/**
 * A MODIFIED euro-area HICP document: the real Eurostat SDMX-CSV recording's layout (data/samples/eurostat-sdmx) with
 * the rows given, `lastUpdate` in Eurostat's `DD/MM/YY HH:MM:SS` (the recording's own form, checked here).
 */
export function modifiedHicpDocument(
  lastUpdate: string,
  rows: [period: string, value: string, flag: string][],
): string {
  expect(REAL_CSV.split("\n")[1]!.split(",")[1]).toMatch(/^\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
  return `${HEADER}\n${rows.map(([period, value, flag]) => `ESTAT:PRC_HICP_MINR(1.0),${lastUpdate},M,RCH_A,TOTAL,EA21,${period},${value},${flag},`).join("\n")}\n`;
}

/**
 * A euro-area HICP figure for 2022-08 published three times (5.3 flagged p, then 5.4, then 5.5), and 2022-09 first
 * published with the third: MODIFIED documents for the questions about a series' past.
 */
export const HICP_REVISIONS: readonly ReplayedDocument[] = [
  {
    name: "2022-08-31-hicp-flash.sdmx.csv",
    body: modifiedHicpDocument("31/08/22 11:00:00", [["2022-08", "5.3", "p"]]),
  },
  { name: "2022-09-16-hicp-full.sdmx.csv", body: modifiedHicpDocument("16/09/22 11:00:00", [["2022-08", "5.4", ""]]) },
  {
    name: "2022-10-31-hicp-revised.sdmx.csv",
    body: modifiedHicpDocument("31/10/22 11:00:00", [
      ["2022-08", "5.5", ""],
      ["2022-09", "6.0", "p"],
    ]),
  },
];

/**
 * Ingests each document in a run of its own, in order (run i at 06:00 UTC on 2026-11-21 plus i days), into a fresh
 * data directory it returns, or into `dataDir` after its `runsBefore` runs; the Eurostat release calendar sample is in
 * the archive too, as in a real fetch.
 */
export async function ingestEachInItsOwnRun(
  documents: readonly ReplayedDocument[],
  into: { dataDir: string; runsBefore: number } | null = null,
): Promise<string> {
  const archive = tempDir("replay-archive");
  const dataDir = into?.dataDir ?? tempDir("replay-data");
  const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
  const calendar = "eurostat-release-calendar-2023-07-19.json";
  mkdirSync(join(archive, "eu-stats-release-calendar"), { recursive: true });
  mkdirSync(join(archive, "eurostat-sdmx"), { recursive: true });
  copyFileSync(
    join(SAMPLES_DIR, "eu-stats-release-calendar", calendar),
    join(archive, "eu-stats-release-calendar", calendar),
  );
  for (const [i, document] of documents.entries()) {
    writeDatedDocument(join(archive, "eurostat-sdmx", document.name), document.body);
    const run = (into?.runsBefore ?? 0) + i;
    const summary = await runIngestion({
      dataDir,
      registry,
      mode: { kind: "archive", dir: archive },
      only: ["eu-stats-release-calendar", "eurostat-sdmx"],
      now: () => Date.parse("2026-11-21T06:00:00.000Z") + run * 86_400_000,
      progress: () => {},
    });
    expect(summary.outcome, document.name).toBe("succeeded");
  }
  return dataDir;
}
