import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodEndDate } from "../../schemas/reference-periods.ts";
import { edgeCaseDataDir, removeEconomicsDataDirs } from "../support/economics-index.ts";
import { ACTIVE, bySlug, RELEASES, type Release } from "../support/public-answers.ts";
import { type RunningService, startService } from "../support/service.ts";
import { EDGE_RUNS } from "../support/synthetic-economics-corpora.ts";
import { yearAgoChangeByHand } from "../support/year-ago-change-by-hand.ts";

afterAll(removeEconomicsDataDirs);

describe("GET /api/public/v1/economics/releases over a synthetic index with later vintages", () => {
  let service: RunningService;
  let body: any;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await edgeCaseDataDir() });
    body = (await service.request(`${RELEASES}?limit=100`)).body;
  });
  afterAll(() => service.close());

  it("carries revision facts after a second and a third vintage", () => {
    const releases = bySlug(body);
    expect(releases.get("ea-unemployment-rate")).toMatchObject({
      referencePeriod: { code: "2026-01" },
      value: "6.0",
      ingestedAt: EDGE_RUNS.third,
      publishedAt: null,
      revision: { count: 2, isRevision: true, previousValue: "6.1" },
      previous: { referencePeriod: "2025-12", value: "6.3", publicationStatus: null },
    });
    // A status change at the same number is a revision.
    expect(releases.get("us-nonfarm-payroll-employment")).toMatchObject({
      value: "159000",
      publicationStatus: null,
      revision: { count: 1, isRevision: true, previousValue: "159000" },
      previous: null,
    });
    // A formatting-only change is not.
    expect(releases.get("us-unemployment-rate")).toMatchObject({
      referencePeriod: { code: "2025-04" },
      value: "4.2",
      revision: { count: 0, isRevision: false, previousValue: null },
    });
  });

  it("stamps publishedAt from the confirmed release event and derives from the current input vintages", () => {
    const releases = bySlug(body);
    expect(releases.get("us-cpi-all-items-nsa")).toMatchObject({
      referencePeriod: { code: "2026-02" },
      value: "326.000",
      publishedAt: "2026-03-11T12:30:00.000Z",
      ingestedAt: EDGE_RUNS.second,
      previous: { referencePeriod: "2026-01", value: "325.252" },
    });
    // By hand: 326.000 / 319.082 = 1.021681…, a change of 2.1681…%, which rounds half-up to 2.2.
    expect(yearAgoChangeByHand("326.000", "319.082", 1)).toBe("2.2");
    expect(releases.get("us-cpi-all-items-12-month-change")).toMatchObject({
      value: "2.2",
      derived: {
        inputs: [
          { sourceSeriesId: "CUUR0000SA0", referencePeriod: "2026-02", value: "326.000" },
          { sourceSeriesId: "CUUR0000SA0", referencePeriod: "2025-02", value: "319.082" },
        ],
      },
      previous: { referencePeriod: "2026-01", value: yearAgoChangeByHand("325.252", "317.671", 1) },
    });
  });

  it("merges newest first by the end of each newest reference period, one comparable key; ties by slug", () => {
    const releases: Release[] = body.data.releases;
    const available = releases.filter((release) => release.availability === "AVAILABLE");
    const keys = available.map((release) => `${periodEndDate(release.referencePeriod!.code)}|${release.series.slug}`);
    const expected = [...keys].sort(
      (a, b) => b.split("|")[0]!.localeCompare(a.split("|")[0]!) || a.split("|")[1]!.localeCompare(b.split("|")[1]!),
    );
    expect(keys).toEqual(expected);
    expect(periodEndDate("2026-03")).toBe("2026-03-31");
    expect(periodEndDate("2026-Q1")).toBe("2026-03-31");
    expect(periodEndDate("2026-06-17")).toBe("2026-06-17");
    expect(releases.slice(available.length).every((release) => release.availability === "UNAVAILABLE")).toBe(true);
    expect(releases.map((release) => release.series.slug).sort()).toEqual(ACTIVE.map((series) => series.slug).sort());
  });
});
