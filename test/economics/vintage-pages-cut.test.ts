import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import { removeTempDirs } from "../ingest/cli-process.ts";
import { HICP_SERIES, ingestEachInItsOwnRun, modifiedHicpDocument } from "../support/document-replay.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * `vintages=all` pages cut to the response ceiling (spec "Limits"): 400 monthly periods of euro-area HICP, each
 * revised by every one of 8 MODIFIED documents (test/support/document-replay.ts), so that a full page of periods with
 * 8 vintages each is well over 1 MB.
 */

const PERIOD_COUNT = 400;
const VINTAGE_COUNT = 8;
const periodOf = (index: number) => `${1990 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
const PERIODS = Array.from({ length: PERIOD_COUNT }, (_, index) => periodOf(index));
const DOCUMENTS = Array.from({ length: VINTAGE_COUNT }, (_, vintage) => {
  const month = String(vintage + 1).padStart(2, "0");
  // Every figure moves in every document, so each document appends a vintage to every period.
  const rows = PERIODS.map((period, index): [string, string, string] => [
    period,
    (1 + (index % 40) / 10 + vintage / 100).toFixed(2),
    "",
  ]);
  return {
    name: `2023-${month}-15-hicp-revision-${vintage + 1}.sdmx.csv`,
    body: modifiedHicpDocument(`15/${month}/23 11:00:00`, rows),
  };
});

interface PeriodVintages {
  referencePeriod: string;
  vintages: { sequence: number }[];
}

describe("vintages=all pages over the response ceiling", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await ingestEachInItsOwnRun(DOCUMENTS) });
    get = credentialedClient(service);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    removeTempDirs();
  });

  it("cuts each page to 1 MB, says so, and resumes after the last period served until every period came once with every vintage", async () => {
    const served: PeriodVintages[] = [];
    const truncated: boolean[] = [];
    let cursor: string | null = null;
    do {
      const response = await get(
        `/api/v1/economics/series/${HICP_SERIES}/observations?vintages=all&limit=10000${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(response.status).toBe(200);
      expect(Buffer.byteLength(response.text)).toBeLessThanOrEqual(RESPONSE_CEILING_BYTES);
      expect(response.body.data.periods.length).toBeGreaterThan(0);
      served.push(...(response.body.data.periods as PeriodVintages[]));
      truncated.push(response.body.meta.truncated as boolean);
      cursor = response.body.meta.nextCursor as string | null;
    } while (cursor !== null);
    expect(served.map((period) => period.referencePeriod)).toEqual(PERIODS);
    for (const period of served) {
      expect(
        period.vintages.map((vintage) => vintage.sequence),
        period.referencePeriod,
      ).toEqual(Array.from({ length: VINTAGE_COUNT }, (_, index) => index + 1));
    }
    expect(truncated[0]).toBe(true);
    expect(truncated.at(-1)).toBe(false);
  });

  it("cuts the CSV form to 1 MB as well, its Link rel=next resuming after the last row until every vintage came once", async () => {
    const rows: string[][] = [];
    let pages = 0;
    let target: string | null =
      `/api/v1/economics/series/${HICP_SERIES}/observations?vintages=all&limit=10000&format=csv`;
    while (target !== null) {
      const response = await get(target);
      pages += 1;
      expect(response.status).toBe(200);
      expect(Buffer.byteLength(response.text)).toBeLessThanOrEqual(RESPONSE_CEILING_BYTES);
      const { header, rows: page } = response.csv!;
      expect(page.length).toBeGreaterThan(0);
      const at = (name: string) => header.indexOf(name);
      rows.push(...page.map((row) => [row[at("referencePeriod")]!, row[at("sequence")]!]));
      const next = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "");
      target = next ? next[1]! : null;
    }
    expect(pages).toBeGreaterThan(1);
    expect(rows).toEqual(
      PERIODS.flatMap((period) => Array.from({ length: VINTAGE_COUNT }, (_, index) => [period, String(index + 1)])),
    );
  });
});
