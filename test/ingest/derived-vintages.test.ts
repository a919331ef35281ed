import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { type IngestSummary, runIngestion } from "../support/compiled-ingestion.ts";
import { writeDatedDocument } from "../support/dated-documents.ts";
import { type RunningService, startService } from "../support/service.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

/**
 * Defect 5 of issue 10: a derived series is vintaged like any other. The real BLS answer captured on 2026-08-24
 * (data/samples/bls-api/bls-v1-5series-…json: CPI-U NSA 2025-07..2026-07) is replayed, then a MODIFIED copy made in this
 * test in which BLS has revised 2025-07 from 323.048 to 322.000 (a revision BLS did not make; the copy stands for a
 * fetch on 2026-09-11). The 12-month change of 2026-07 must be revised with it, and the earlier figure kept.
 */

const REAL_NAME = "bls-v1-5series-2025-07_2026-07-captured-2026-08-24.json";
const REAL = readFileSync(join(SAMPLES_DIR, "bls-api", REAL_NAME), "utf8");
const REVISED = REAL.replace(
  '{"year":"2025","period":"M07","periodName":"July","value":"323.048"',
  '{"year":"2025","period":"M07","periodName":"July","value":"322.000"',
);
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const DERIVED = "us-cpi-all-items-12-month-change";
const OBSERVATIONS = "/api/public/v1/economics/observations";

/** (a / b - 1) × 100 rounded half-up to one decimal, in integer arithmetic on the decimal strings (an independent check). */
function changeByHand(a: string, b: string): string {
  const scaled = (text: string) => BigInt(text.replace(".", "")) * 10n ** BigInt(3 - (text.split(".")[1]?.length ?? 0));
  const [numerator, denominator] = [(scaled(a) - scaled(b)) * 1000n, scaled(b)];
  const tenths = (2n * numerator + denominator) / (2n * denominator);
  return `${tenths / 10n}.${tenths % 10n}`;
}

describe("a derived series vintaged with its inputs (issue 10, defect 5)", () => {
  const archive = tempDir("derived-archive");
  const dataDir = tempDir("derived-data");
  let summary: IngestSummary;
  let service: RunningService;

  beforeAll(async () => {
    expect(REVISED).not.toBe(REAL);
    mkdirSync(join(archive, "bls-api"), { recursive: true });
    writeDatedDocument(join(archive, "bls-api", "2026-08-24-bls-5series.json"), REAL);
    writeDatedDocument(join(archive, "bls-api", "2026-09-11-bls-5series-revised.json"), REVISED);
    summary = await runIngestion({
      dataDir,
      registry: readRegistrySources(new Date("2026-11-21T00:00:00Z")),
      mode: { kind: "archive", dir: archive },
      only: ["bls-api"],
      now: () => Date.parse("2026-11-21T06:00:00.000Z"),
      progress: () => {},
    });
    service = await startService({ seedDataDir: dataDir });
  });
  afterAll(async () => {
    await service?.close();
    removeTempDirs();
  });

  it("computes the change when the input arrives and again when the input's revision changes it", () => {
    expect(summary.outcome).toBe("succeeded");
    // One input revision appended (2025-07), and one derived vintage per document for 2026-07.
    expect(summary.sources[0]!.counts).toMatchObject({ derived: 2 });
    expect(changeByHand("333.918", "323.048")).toBe("3.4");
    expect(changeByHand("333.918", "322.000")).toBe("3.7");
    const store = new Database(join(dataDir, "store.sqlite"), { readonly: true });
    try {
      const vintages = store
        .prepare(
          "SELECT reference_period, sequence, value, derivation, derived_inputs FROM vintages WHERE series_slug = ? ORDER BY reference_period, sequence",
        )
        .all(DERIVED) as { derived_inputs: string }[];
      expect(vintages.map(({ derived_inputs: _, ...rest }) => rest)).toEqual([
        { reference_period: "2026-07", sequence: 1, value: "3.4", derivation: "SERVICE_DERIVED" },
        { reference_period: "2026-07", sequence: 2, value: "3.7", derivation: "SERVICE_DERIVED" },
      ]);
      // The earlier figure keeps the inputs it was computed from.
      expect(
        JSON.parse(vintages[0]!.derived_inputs).map((input: { value: string; vintage: number }) => [
          input.value,
          input.vintage,
        ]),
      ).toEqual([
        ["333.918", 1],
        ["323.048", 1],
      ]);
    } finally {
      store.close();
    }
  });

  it("serves the revised change with its revision facts, formula and input vintages", async () => {
    const { body } = await service.request(`${OBSERVATIONS}?series=${DERIVED}`);
    const rule = readRegistrySources().series.find((series) => series.slug === DERIVED)!.derived!;
    expect(body.data.observations).toEqual([
      {
        referencePeriod: "2026-07",
        value: "3.7",
        publicationStatus: null,
        publisherNote: null,
        revisionCount: 1,
        isRevision: true,
        previousValue: "3.4",
        sourceUpdatedAt: null,
        ingestedAt: "2026-11-21T06:00:00.000Z",
        provenance: {
          sourceId: "bls-api",
          adapter: "derive-series",
          derivation: "SERVICE_DERIVED",
          transformation: ["PERCENT_CHANGE_YEAR_AGO", "ROUNDED_HALF_UP"],
          document: { sha256: sha256(REVISED), fetchedAt: "2026-09-11T00:00:00.000Z" },
        },
        derived: {
          formula: rule.formula,
          inputs: [
            {
              sourceSeriesId: "CUUR0000SA0",
              referencePeriod: "2026-07",
              value: "333.918",
              publicationStatus: null,
              vintage: 1,
              document: { sha256: sha256(REAL), fetchedAt: "2026-08-24T00:00:00.000Z" },
            },
            {
              sourceSeriesId: "CUUR0000SA0",
              referencePeriod: "2025-07",
              value: "322.000",
              publicationStatus: null,
              vintage: 2,
              document: { sha256: sha256(REVISED), fetchedAt: "2026-09-11T00:00:00.000Z" },
            },
          ],
        },
      },
    ]);
    const releases = await service.request(`/api/public/v1/economics/releases?series=${DERIVED}`);
    expect(releases.body.data.releases[0]).toMatchObject({
      value: "3.7",
      revision: { count: 1, isRevision: true, previousValue: "3.4" },
      derived: { formula: rule.formula },
    });
  });

  it("serves BLS's October 2025 gap as null with BLS's own footnote, never a number and never left out", async () => {
    const { body } = await service.request(`${OBSERVATIONS}?series=us-cpi-all-items-nsa&from=2025-09&to=2025-11`);
    expect(
      body.data.observations.map((row: { referencePeriod: string; value: string | null }) => [
        row.referencePeriod,
        row.value,
      ]),
    ).toEqual([
      ["2025-09", "324.800"],
      ["2025-10", null],
      ["2025-11", "324.122"],
    ]);
    expect(body.data.observations[1]).toMatchObject({
      publicationStatus: "X",
      publisherNote: "Data unavailable due to the 2025 lapse in appropriations",
      provenance: {
        sourceId: "bls-api",
        adapter: "bls-timeseries-json",
        transformation: ["PERIOD_CODE_REWRITTEN", "MISSING_MARKER_AS_NULL"],
      },
    });
    const unemployment = await service.request(`${OBSERVATIONS}?series=us-unemployment-rate&from=2025-10&to=2025-10`);
    expect(unemployment.body.data.observations).toEqual([
      expect.objectContaining({
        value: null,
        publicationStatus: "9",
        publisherNote: "Data unavailable due to the 2025 lapse in appropriations.",
      }),
    ]);
  });
});

describe("BLS failures inside HTTP 200 are failed source checks, never empty successes", () => {
  afterAll(removeTempDirs);

  it.each([
    ["bls-api-v2-invalid-key.json", /REQUEST_NOT_PROCESSED.*key:INVALID/],
    ["bls-api-invalid-series.json", /Invalid Series for Series NOTASERIES1/],
    ["bls-api-empty-results.json", /holds no series/],
  ])("%s: the source is incomplete and nothing is published", async (name, detail) => {
    const archive = tempDir("bls-failure-archive");
    mkdirSync(join(archive, "bls-api"), { recursive: true });
    writeFileSync(
      join(archive, "bls-api", name),
      readFileSync(new URL(`../fixtures/observations/${name}`, import.meta.url)),
    );
    const dataDir = tempDir("bls-failure-data");
    const summary = await runIngestion({
      dataDir,
      registry: readRegistrySources(),
      mode: { kind: "archive", dir: archive },
      only: ["bls-api"],
      now: () => Date.parse("2026-11-21T06:00:00.000Z"),
      progress: () => {},
    });
    expect(summary).toMatchObject({ outcome: "failed", published: false });
    expect(summary.sources[0]).toMatchObject({ source: "bls-api", ok: false });
    expect(summary.sources[0]!.detail).toMatch(detail);
    const store = new Database(join(dataDir, "store.sqlite"), { readonly: true });
    try {
      expect(store.prepare("SELECT result FROM source_checks WHERE source = 'bls-api'").pluck().all()).toEqual([
        "incomplete",
      ]);
      expect(store.prepare("SELECT count(*) FROM vintages").pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });
});
