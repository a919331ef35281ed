import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { leastFinalStatus } from "../../schemas/publication-status.ts";
import { type IngestSummary, runIngestion } from "../support/compiled-ingestion.ts";
import { copyRecordedDocument, stateFetchTime } from "../support/dated-documents.ts";
import { type RunningService, startService } from "../support/service.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

/**
 * Issue 38, item 6: a derived value carries the publication status of its inputs (the least final of them), and a
 * change of an input's status alone is a revision of the derived value. The real ECB key-rate recording
 * (data/samples/ecb-data/2026-06-30-…csvdata.csv, every row OBS_STATUS A) is replayed with its own sidecar (fetched
 * 2026-06-30), then a MODIFIED copy made in this test in which the deposit facility change of 2025-06-11 (2.00) is
 * marked P, provisional — a status the ECB did not give it; this test gives the copy a fetch time of 2026-07-15. Same
 * number, other status: the ECB's input is revised, and so is every month-end rate that change was in force at.
 */

const REAL_NAME = "2026-06-30-ecb-fm-key-rates-from-2012.csvdata.csv";
const REAL = readFileSync(join(SAMPLES_DIR, "ecb-data", REAL_NAME), "utf8");
const ROW = "FM.B.U2.EUR.4F.KR.DFR.LEV,B,U2,EUR,4F,KR,DFR,LEV,2025-06-11,2,A,";
const PROVISIONAL = REAL.replace(ROW, "FM.B.U2.EUR.4F.KR.DFR.LEV,B,U2,EUR,4F,KR,DFR,LEV,2025-06-11,2,P,");
const SERIES = "ecb-deposit-facility-rate";
const OBSERVATIONS = "/api/public/v1/economics/observations";

describe("a derived value carries its inputs' publication status (issue 38, item 6)", () => {
  const archive = tempDir("derived-status-archive");
  const dataDirs = { first: tempDir("derived-status-first"), both: tempDir("derived-status-both") };
  let summary: IngestSummary;
  let service: RunningService;

  const ingest = (dataDir: string) =>
    runIngestion({
      dataDir,
      registry: readRegistrySources(new Date("2026-11-21T00:00:00Z")),
      mode: { kind: "archive", dir: archive },
      only: ["ecb-data"],
      now: () => Date.parse("2026-11-21T06:00:00.000Z"),
      progress: () => {},
    });
  const vintagesOf = (dataDir: string, period: string) => {
    const store = new Database(join(dataDir, "store.sqlite"), { readonly: true });
    try {
      return store
        .prepare(
          "SELECT sequence, value, publication_status FROM vintages WHERE series_slug = ? AND reference_period = ? ORDER BY sequence",
        )
        .all(SERIES, period);
    } finally {
      store.close();
    }
  };

  beforeAll(async () => {
    expect(REAL).toContain(ROW);
    expect(PROVISIONAL).not.toBe(REAL);
    mkdirSync(join(archive, "ecb-data"), { recursive: true });
    copyRecordedDocument(join(SAMPLES_DIR, "ecb-data", REAL_NAME), join(archive, "ecb-data", REAL_NAME));
    await ingest(dataDirs.first);
    const provisional = join(archive, "ecb-data", "ecb-fm-key-rates-MODIFIED-dfr-2025-06-11-provisional.csvdata.csv");
    writeFileSync(provisional, PROVISIONAL);
    stateFetchTime(
      provisional,
      "2026-07-15T00:00:00Z",
      "MODIFIED by test/ingest/derived-status.test.ts (DFR 2025-06-11: OBS_STATUS A → P); the fetch time is the test's",
    );
    summary = await ingest(dataDirs.both);
    service = await startService({ seedDataDir: dataDirs.both });
  });
  afterAll(async () => {
    await service?.close();
    removeTempDirs();
  });

  it("gives a month-end rate the status of the change in force (A from the real recording), not null", () => {
    expect(vintagesOf(dataDirs.first, "2025-06")).toEqual([{ sequence: 1, value: "2", publication_status: "A" }]);
    expect(vintagesOf(dataDirs.first, "2025-05")).toEqual([{ sequence: 1, value: "2.25", publication_status: "A" }]);
  });

  it("revises every month the provisional change was in force at: same number, status P", () => {
    expect(summary.outcome).toBe("succeeded");
    for (const month of ["2025-06", "2025-12", "2026-05"])
      expect(vintagesOf(dataDirs.both, month), month).toEqual([
        { sequence: 1, value: "2", publication_status: "A" },
        { sequence: 2, value: "2", publication_status: "P" },
      ]);
    // A month another change was in force at is untouched.
    expect(vintagesOf(dataDirs.both, "2025-05")).toEqual([{ sequence: 1, value: "2.25", publication_status: "A" }]);
  });

  it("serves the revision with the input's status among its inputs", async () => {
    const { status, body } = await service.request(`${OBSERVATIONS}?series=${SERIES}&from=2025-05&to=2025-06`);
    expect(status).toBe(200);
    const [may, june] = body.data.observations;
    expect(may).toMatchObject({ referencePeriod: "2025-05", value: "2.25", publicationStatus: "A", revisionCount: 0 });
    expect(june).toMatchObject({
      referencePeriod: "2025-06",
      value: "2",
      publicationStatus: "P",
      revisionCount: 1,
      isRevision: true,
      previousValue: "2",
    });
    expect(june.derived.inputs).toMatchObject([
      { sourcePeriod: "2025-06-11", value: "2", publicationStatus: "P", vintage: 2 },
    ]);
  });
});

describe("the least final status, in each publisher's codes", () => {
  it.each([
    ["ECB", ["A", "P"], "P"],
    ["ECB", ["A", "E", "P"], "E"],
    ["ECB", ["A", "A"], "A"],
    ["BLS", [null, "P"], "P"],
    ["BLS", ["X", null], "X"], // a gap mark says nothing about finality: the period's own input is named
    ["EUROSTAT", ["b", "bp"], "bp"], // a break that is also provisional
    ["EUROSTAT", ["i", null], "i"],
    ["EUROSTAT", ["p|C", "e"], "e"],
  ] as const)("%s %j → %s", (publisher, statuses, expected) => {
    expect(leastFinalStatus(publisher, statuses)).toBe(expected);
  });
});
