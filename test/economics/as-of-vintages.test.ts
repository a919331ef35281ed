import { createHash } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { removeTempDirs } from "../ingest/cli-process.ts";
import {
  HICP_REVISIONS,
  HICP_SERIES,
  ingestEachInItsOwnRun,
  modifiedHicpDocument,
} from "../support/document-replay.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * As-of and all-vintages answers (issue 13) through the real pipeline: a euro-area HICP figure for 2022-08 published
 * three times (5.3 flagged p, then 5.4, then 5.5), each MODIFIED document (test/support/document-replay.ts) replayed
 * from the archive in its own run.
 */

const DOCUMENTS = HICP_REVISIONS;
// The figures of the third document restated under a later LAST UPDATE: no vintage, only a later sighting.
const RESTATEMENT = {
  name: "2022-11-15-hicp-restated.sdmx.csv",
  body: modifiedHicpDocument("15/11/22 11:00:00", [
    ["2022-08", "5.5", ""],
    ["2022-09", "6.0", "p"],
  ]),
};
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const path = (query: string) => `/api/v1/economics/series/${HICP_SERIES}/observations?${query}`;

describe("as-of and all-vintages answers on the credentialed observations route", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await ingestEachInItsOwnRun(DOCUMENTS) });
    get = credentialedClient(service);
  });
  afterAll(async () => {
    await service?.close();
    removeTempDirs();
  });

  it("lists every vintage of each period with the run and instant that recorded it and its archived document", async () => {
    const { status, body } = await get(path("vintages=all"));
    expect(status).toBe(200);
    expect(body.data.asOf).toBeNull();
    expect(body.data.periods.map((period: { referencePeriod: string }) => period.referencePeriod)).toEqual([
      "2022-08",
      "2022-09",
    ]);
    const august = body.data.periods[0].vintages;
    expect(
      august.map(
        (vintage: { sequence: number; value: string; publicationStatus: string | null; recordedAt: string }) => [
          vintage.sequence,
          vintage.value,
          vintage.publicationStatus,
          vintage.recordedAt,
        ],
      ),
    ).toEqual([
      [1, "5.3", "p", "2022-08-31T00:00:00.000Z"],
      [2, "5.4", null, "2022-09-16T00:00:00.000Z"],
      [3, "5.5", null, "2022-10-31T00:00:00.000Z"],
    ]);
    expect(
      august.map((vintage: { provenance: { document: { sha256: string } } }) => vintage.provenance.document.sha256),
    ).toEqual(DOCUMENTS.map((document) => sha256(document.body)));
    expect(new Set(august.map((vintage: { runId: string }) => vintage.runId)).size).toBe(3);
  });

  it("answers each period with the vintage current at each vintage's own instant, and its revision facts as they were then", async () => {
    const expectations = [
      { asOf: "2022-08-31T00:00:00Z", value: "5.3", vintage: 1, revisionCount: 0, previousValue: null, periods: 1 },
      { asOf: "2022-09-15", value: "5.3", vintage: 1, revisionCount: 0, previousValue: null, periods: 1 },
      {
        asOf: "2022-09-16T02:00:00+02:00",
        value: "5.4",
        vintage: 2,
        revisionCount: 1,
        previousValue: "5.3",
        periods: 1,
      },
      { asOf: "2022-10-31", value: "5.5", vintage: 3, revisionCount: 2, previousValue: "5.4", periods: 2 },
    ];
    for (const expected of expectations) {
      const { status, body } = await get(path(`asOf=${encodeURIComponent(expected.asOf)}`));
      expect(status, expected.asOf).toBe(200);
      expect(body.data.observations, expected.asOf).toHaveLength(expected.periods);
      expect(body.data.observations[0], expected.asOf).toMatchObject({
        referencePeriod: "2022-08",
        value: expected.value,
        vintage: expected.vintage,
        revisionCount: expected.revisionCount,
        isRevision: expected.revisionCount > 0,
        previousValue: expected.previousValue,
      });
    }
  });

  it("answers an instant before the first ingestion with an empty list, a millisecond before a vintage with the one before it", async () => {
    const before = await get(path("asOf=2022-08-30T23:59:59.999Z"));
    expect(before.status).toBe(200);
    expect(before.body.data.observations).toEqual([]);
    const justBefore = await get(path("asOf=2022-09-15T23:59:59.999Z"));
    expect(justBefore.body.data.observations[0]).toMatchObject({ value: "5.3", vintage: 1 });
    const allThen = await get(path("vintages=all&asOf=2022-09-16"));
    expect(allThen.body.data.periods).toHaveLength(1);
    expect(allThen.body.data.periods[0].vintages.map((vintage: { value: string }) => vintage.value)).toEqual([
      "5.3",
      "5.4",
    ]);
  });

  it("pages by period and honours from and to", async () => {
    const first = await get(path("asOf=2022-11-01&limit=1"));
    expect(
      first.body.data.observations.map((observation: { referencePeriod: string }) => observation.referencePeriod),
    ).toEqual(["2022-08"]);
    const next = await get(path(`asOf=2022-11-01&limit=1&cursor=${first.body.meta.nextCursor}`));
    expect(
      next.body.data.observations.map((observation: { referencePeriod: string }) => observation.referencePeriod),
    ).toEqual(["2022-09"]);
    expect(next.body.meta.nextCursor).toBeNull();
    const ranged = await get(path("vintages=all&from=2022-09&to=2022-09"));
    expect(ranged.body.data.periods.map((period: { referencePeriod: string }) => period.referencePeriod)).toEqual([
      "2022-09",
    ]);
  });

  it("refuses a malformed asOf or vintages value, and keeps the public route on the current vintage", async () => {
    for (const query of ["asOf=yesterday", "asOf=2022-13-01", "asOf=2022-09-16T10:00:00", "vintages=some"]) {
      const { status, body } = await get(path(query));
      expect(status, query).toBe(400);
      expect(body.error.code, query).toBe("VALIDATION_FAILED");
    }
    const current = await get(path(""));
    expect(current.body.data.observations[0]).toMatchObject({ value: "5.5", revisionCount: 2 });
    const publicAnswer = await service.request(
      `/api/public/v1/economics/observations?series=${HICP_SERIES}&asOf=2022-09-01`,
    );
    expect(publicAnswer.body.data.observations[0]).toMatchObject({ value: "5.5" });
  });
});

describe("as-of sourceUpdatedAt after a restatement of the same figures", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await ingestEachInItsOwnRun([...DOCUMENTS, RESTATEMENT]) });
    get = credentialedClient(service);
  });
  afterAll(async () => {
    await service?.close();
    removeTempDirs();
  });

  it("answers as the current route from the restatement's fetch on, and with the vintage's own statement before it", async () => {
    const current = (await get(path(""))).body.data.observations as {
      referencePeriod: string;
      sourceUpdatedAt: string;
    }[];
    const after = (await get(path("asOf=2022-11-15"))).body.data.observations;
    expect(after).toHaveLength(current.length);
    for (const [i, observation] of current.entries())
      expect(after[i], observation.referencePeriod).toMatchObject(observation);

    const vintages = (await get(path("vintages=all"))).body.data.periods as {
      vintages: { sequence: number; sourceUpdatedAt: string }[];
    }[];
    const thirdStatement = vintages[0]!.vintages.find((vintage) => vintage.sequence === 3)!.sourceUpdatedAt;
    expect(thirdStatement).not.toBe(current[0]!.sourceUpdatedAt);
    const dayBefore = (await get(path("asOf=2022-11-14"))).body.data.observations;
    expect(dayBefore[0]).toMatchObject({
      referencePeriod: "2022-08",
      vintage: 3,
      value: "5.5",
      sourceUpdatedAt: thirdStatement,
    });
  });
});

describe("an index built before the sightings were indexed", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    const dataDir = await ingestEachInItsOwnRun(DOCUMENTS);
    const index = new Database(join(dataDir, DATA_FILES.index));
    index.exec("ALTER TABLE observations DROP COLUMN last_sighted_at");
    index.close();
    service = await startService({ seedDataDir: dataDir });
    get = credentialedClient(service);
  });
  afterAll(async () => {
    await service?.close();
    removeTempDirs();
  });

  it("answers as-of questions 503 STORAGE_UNAVAILABLE with Retry-After until the next ingest, and everything else as before", async () => {
    const refused = await get(path("asOf=2022-11-01"));
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("STORAGE_UNAVAILABLE");
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(JSON.stringify(refused.body)).not.toContain("last_sighted_at");
    // The operator is told why, once: the answer says nothing internal, every such request fails alike.
    expect((await get(path("asOf=2022-10-01"))).status).toBe(503);
    const causes = service.logs.filter((line) => line.includes("no such column") && line.includes("last_sighted_at"));
    expect(causes).toHaveLength(1);
    expect((await get(path("asOf=2022-11-01&vintages=all"))).status).toBe(200);
    expect((await get(path("vintages=all"))).status).toBe(200);
    expect((await get(path(""))).body.data.observations[0]).toMatchObject({ value: "5.5", revisionCount: 2 });
    expect((await service.request(`/api/public/v1/economics/observations?series=${HICP_SERIES}`)).status).toBe(200);

    await ingestEachInItsOwnRun([RESTATEMENT], { dataDir: service.dataDir, runsBefore: DOCUMENTS.length });
    await expect.poll(async () => (await get(path("asOf=2022-11-01"))).status, { timeout: 5_000 }).toBe(200);
  });
});
