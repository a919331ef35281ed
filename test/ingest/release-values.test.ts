import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { type IngestSummary, runIngestion } from "../support/compiled-ingestion.ts";
import { writeDatedDocument } from "../support/dated-documents.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { type RunningService, startService } from "../support/service.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

/**
 * Defects 3, 4 and 8 of issue 10 through the real pipeline (archive replay, ledger, index, HTTP): a euro-area HICP value
 * published by the flash estimate (5.3, flag p) and revised by the full release (5.4), then a document that changes
 * only Eurostat's LAST UPDATE. The calendar is the real Eurostat recording of 2023-07-19 (flash estimate for August 2022
 * on 2022-08-31, full HICP release on 2022-09-16). The value documents are MODIFIED: built in this test from the real
 * SDMX-CSV recording (data/samples/eurostat-sdmx/eurostat-une_rt_m.sdmx.csv), keeping its layout and LAST UPDATE format
 * but with the HICP dataset's columns and the figures, which are not Eurostat's own August 2022 values.
 * Each document's name carries the day it stands for a fetch on (the archive's name-order-is-fetch-order convention).
 */

const REAL_CSV = readFileSync(join(SAMPLES_DIR, "eurostat-sdmx", "eurostat-une_rt_m.sdmx.csv"), "utf8");
const REAL_ROW = REAL_CSV.split("\n")[1]!.split(",");

/** One HICP row in the recording's layout: DATAFLOW, LAST UPDATE, then the dimensions of prc_hicp_minr. */
function hicpDocument(lastUpdate: string, value: string, flag: string): string {
  const header = "DATAFLOW,LAST UPDATE,freq,unit,coicop18,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS";
  expect(REAL_ROW[1]).toMatch(/^\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
  return `${header}\nESTAT:PRC_HICP_MINR(1.0),${lastUpdate},M,RCH_A,TOTAL,EA21,2022-08,${value},${flag},\n`;
}

const DOCUMENTS = {
  flash: { name: "2022-08-31-hicp-flash.sdmx.csv", body: hicpDocument("31/08/22 11:00:00", "5.3", "p") },
  full: { name: "2022-09-16-hicp-full.sdmx.csv", body: hicpDocument("16/09/22 11:00:00", "5.4", "") },
  restamped: { name: "2022-09-20-hicp-restamped.sdmx.csv", body: hicpDocument("20/09/22 11:00:00", "5.40", "") },
};
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const FLASH_RELEASE = "eurostat-hicp-flash-estimate";
const FULL_RELEASE = "eurostat-hicp";
const SERIES = "ea-hicp-all-items-annual-rate";

describe("an event's value is the vintage its release produced, with provenance (issue 10, defects 3, 4, 8)", () => {
  const archive = tempDir("release-values-archive");
  const dataDir = tempDir("release-values-data");
  const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
  let first: IngestSummary;
  let restamp: IngestSummary;
  let indexAfterFirst: Record<string, { values: any; publication: any }>;
  let service: RunningService;

  const ingest = (at: string) =>
    runIngestion({
      dataDir,
      registry,
      mode: { kind: "archive", dir: archive },
      only: ["eu-stats-release-calendar", "eurostat-sdmx"],
      now: () => Date.parse(at),
      progress: () => {},
    });
  const eventsOf = (): Record<string, { values: any; publication: any }> => {
    const index = new Database(join(dataDir, "index.sqlite"), { readonly: true });
    try {
      const rows = index
        .prepare("SELECT record FROM events WHERE release_slug IN (?, ?)")
        .pluck()
        .all(FLASH_RELEASE, FULL_RELEASE) as string[];
      const records = rows.map((row) => JSON.parse(row)).filter((record) => record.referencePeriod?.code === "2022-08");
      return Object.fromEntries(records.map((record) => [record.release.slug, record]));
    } finally {
      index.close();
    }
  };

  beforeAll(async () => {
    mkdirSync(join(archive, "eu-stats-release-calendar"), { recursive: true });
    mkdirSync(join(archive, "eurostat-sdmx"), { recursive: true });
    copyFileSync(
      join(SAMPLES_DIR, "eu-stats-release-calendar", "eurostat-release-calendar-2023-07-19.json"),
      join(archive, "eu-stats-release-calendar", "eurostat-release-calendar-2023-07-19.json"),
    );
    for (const document of [DOCUMENTS.flash, DOCUMENTS.full])
      writeDatedDocument(join(archive, "eurostat-sdmx", document.name), document.body);
    first = await ingest("2026-11-21T06:00:00.000Z");
    indexAfterFirst = eventsOf();
    writeDatedDocument(join(archive, "eurostat-sdmx", DOCUMENTS.restamped.name), DOCUMENTS.restamped.body);
    restamp = await ingest("2026-11-22T06:00:00.000Z");
    service = await startService({ seedDataDir: dataDir });
  });
  afterAll(async () => {
    await service?.close();
    removeTempDirs();
  });

  it("replays both documents: two vintages of 2022-08, the second a revision", () => {
    expect(first.outcome).toBe("succeeded");
    expect(first.sources.find((source) => source.source === "eurostat-sdmx")!.counts).toMatchObject({
      appended: 2,
      unregistered: 0,
    });
    const store = new Database(join(dataDir, "store.sqlite"), { readonly: true });
    try {
      expect(
        store
          .prepare(
            "SELECT sequence, value, publication_status, adapter, document_sha256, document_fetched_at FROM vintages WHERE series_slug = ? ORDER BY sequence",
          )
          .all(SERIES),
      ).toEqual([
        {
          sequence: 1,
          value: "5.3",
          publication_status: "p",
          adapter: "eurostat-sdmx-csv",
          document_sha256: sha256(DOCUMENTS.flash.body),
          document_fetched_at: "2022-08-31T00:00:00.000Z",
        },
        {
          sequence: 2,
          value: "5.4",
          publication_status: null,
          adapter: "eurostat-sdmx-csv",
          document_sha256: sha256(DOCUMENTS.full.body),
          document_fetched_at: "2022-09-16T00:00:00.000Z",
        },
      ]);
    } finally {
      store.close();
    }
  });

  it("shows the flash estimate's own figure (5.3 p) as its actual, and the full release's revision only as a revision", () => {
    const flash = indexAfterFirst[FLASH_RELEASE]!;
    expect(flash.values.availability).toBe("AVAILABLE");
    expect(flash.values.actual).toMatchObject({
      seriesSlug: SERIES,
      referencePeriod: "2022-08",
      value: "5.3",
      publicationStatus: "p",
      vintage: 1,
      recordedAt: "2022-08-31T00:00:00.000Z",
      revisions: [{ vintage: 2, value: "5.4", publicationStatus: null, recordedAt: "2022-09-16T00:00:00.000Z" }],
    });
    const details = flash.publication.evidence.map((item: { detail: string }) => item.detail);
    expect(details).toEqual([`${SERIES} 2022-08 = 5.3 (vintage 1)`]);
    expect(details.join(" ")).not.toContain("5.4");
  });

  it("shows the full release's figure (5.4) as its actual, with its own evidence naming vintage 2", () => {
    const full = indexAfterFirst[FULL_RELEASE]!;
    expect(full.values.actual).toMatchObject({ value: "5.4", publicationStatus: null, vintage: 2, revisions: [] });
    expect(full.publication.evidence.map((item: { detail: string }) => item.detail)).toEqual([
      `${SERIES} 2022-08 = 5.4 (vintage 2)`,
    ]);
  });

  it("carries on each event value the provenance of its own vintage: source, adapter, transformations, document", () => {
    expect(indexAfterFirst[FLASH_RELEASE]!.values.actual.provenance).toEqual({
      sourceId: "eurostat-sdmx",
      adapter: "eurostat-sdmx-csv",
      derivation: "PUBLISHER_VALUE",
      transformation: ["UPDATE_TIME_TO_UTC"],
      document: { sha256: sha256(DOCUMENTS.flash.body), fetchedAt: "2022-08-31T00:00:00.000Z" },
    });
    expect(indexAfterFirst[FULL_RELEASE]!.values.actual.provenance.document).toEqual({
      sha256: sha256(DOCUMENTS.full.body),
      fetchedAt: "2022-09-16T00:00:00.000Z",
    });
  });

  it("appends no vintage when only LAST UPDATE changes (and 5.4 is written 5.40), but sourceUpdatedAt moves", async () => {
    expect(restamp.totals.vintagesAppended).toBe(0);
    expect(restamp.sources.find((source) => source.source === "eurostat-sdmx")!.counts).toMatchObject({
      known: 2,
      unchanged: 1,
    });
    const { body } = await service.request(`/api/public/v1/economics/observations?series=${SERIES}`);
    expect(body.data.observations).toEqual([
      {
        referencePeriod: "2022-08",
        value: "5.4",
        publicationStatus: null,
        publisherNote: null,
        revisionCount: 1,
        isRevision: true,
        previousValue: "5.3",
        // "20/09/22 11:00:00" in Brussels (CEST) is 09:00Z: the newer statement, although the value did not change.
        sourceUpdatedAt: "2022-09-20T09:00:00.000Z",
        ingestedAt: "2026-11-21T06:00:00.000Z",
        provenance: {
          sourceId: "eurostat-sdmx",
          adapter: "eurostat-sdmx-csv",
          derivation: "PUBLISHER_VALUE",
          transformation: ["UPDATE_TIME_TO_UTC"],
          document: { sha256: sha256(DOCUMENTS.full.body), fetchedAt: "2022-09-16T00:00:00.000Z" },
        },
      },
    ]);
  });

  it("serves the same provenance on the credentialed observations route and on the event in the events route", async () => {
    const get = credentialedClient(service);
    const observations = await get(`/api/v1/economics/series/${SERIES}/observations`);
    expect(observations.status).toBe(200);
    expect(observations.body.data.observations[0].provenance.document.sha256).toBe(sha256(DOCUMENTS.full.body));
    const events = await get(`/api/v1/economics/events?from=2022-08-30&to=2022-09-01&release=${FLASH_RELEASE}`);
    expect(events.status).toBe(200);
    const [flash] = events.body.data.entries;
    expect(flash.values.actual).toMatchObject({
      value: "5.3",
      vintage: 1,
      provenance: { document: { sha256: sha256(DOCUMENTS.flash.body) } },
    });
  });
});
