import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndicatorFamily, Series } from "../../schemas/registry.ts";
import { CATEGORIES } from "../../schemas/vocabularies.ts";
import { type RunningService, startService } from "../support/service.ts";

const families = JSON.parse(
  readFileSync(new URL("../../data/registry/families.json", import.meta.url), "utf8"),
) as IndicatorFamily[];
const series = JSON.parse(
  readFileSync(new URL("../../data/registry/series.json", import.meta.url), "utf8"),
) as Series[];

describe("registry routes", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it("lists every active family and the whole category vocabulary, without a credential", async () => {
    const { status, body } = await service.request("/api/v1/economics/indicators");
    expect(status).toBe(200);
    expect(body.data.categories).toEqual([...CATEGORIES]);
    expect(body.data.indicators.map((family: IndicatorFamily) => family.slug)).toEqual(
      families.filter((family) => family.active).map((family) => family.slug),
    );
    expect(body.data.indicators.map((family: IndicatorFamily) => family.slug)).not.toContain(
      "euro-overnight-index-average",
    );
  });

  it("keeps US CPI and HICP as separate, related price families", async () => {
    const { body } = await service.request("/api/v1/economics/indicators?category=prices");
    const slugs = body.data.indicators.map((family: IndicatorFamily) => family.slug);
    expect(slugs).toEqual(expect.arrayContaining(["consumer-prices-us", "harmonised-consumer-prices"]));
    const cpi = body.data.indicators.find((family: IndicatorFamily) => family.slug === "consumer-prices-us");
    expect(cpi.relatedFamilySlugs).toContain("harmonised-consumer-prices");
  });

  it("filters by category case-insensitively and refuses an unknown one", async () => {
    const lower = await service.request("/api/v1/economics/indicators?category=labour");
    const upper = await service.request("/api/v1/economics/indicators?category=LABOUR");
    expect(lower.body.data).toEqual(upper.body.data);
    expect(lower.body.data.indicators.every((family: IndicatorFamily) => family.category === "LABOUR")).toBe(true);
    const unknown = await service.request("/api/v1/economics/indicators?category=weather");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("VALIDATION_FAILED");
  });

  it("answers a family with its active series, ignores category, and 404s a bad or unknown slug", async () => {
    const { status, body } = await service.request("/api/v1/economics/indicators/consumer-prices-us?category=weather");
    expect(status).toBe(200);
    expect(body.data.indicator.slug).toBe("consumer-prices-us");
    const expected = series
      .filter((entry) => entry.familySlug === "consumer-prices-us" && entry.active)
      .map((entry) => entry.slug);
    expect(body.data.series.map((entry: { slug: string }) => entry.slug)).toEqual(expected);
    for (const slug of ["Consumer-Prices", "cpi_us", "no-such-family", "caf%C3%A9"]) {
      const missing = await service.request(`/api/v1/economics/indicators/${slug}`);
      expect(missing.status, slug).toBe(404);
      expect(missing.body.error.code).toBe("NOT_FOUND");
    }
  });

  it("resolves an inactive family by slug", async () => {
    const { status, body } = await service.request("/api/v1/economics/indicators/euro-overnight-index-average");
    expect(status).toBe(200);
    expect(body.data.indicator.slug).toBe("euro-overnight-index-average");
  });

  it("lists active series in registry order with totalMatching and omits inactive ones", async () => {
    const { body } = await service.request("/api/v1/economics/series");
    const active = series.filter((entry) => entry.active);
    expect(body.data.totalMatching).toBe(active.length);
    expect(body.meta.totalMatching).toBe(active.length);
    expect(body.data.series.map((entry: { slug: string }) => entry.slug)).toEqual(active.map((entry) => entry.slug));
  });

  it("applies indicator, country and region filters as the spec says", async () => {
    const byFamily = await service.request("/api/v1/economics/series?indicator=unemployment-rate");
    expect(byFamily.body.data.series.every((entry: { family: string }) => entry.family === "unemployment-rate")).toBe(
      true,
    );
    expect(
      (await service.request("/api/v1/economics/series?indicator=Unemployment-Rate")).body.data.totalMatching,
    ).toBe(0);
    expect((await service.request("/api/v1/economics/series?indicator=nothing")).body.data.totalMatching).toBe(0);

    const us = await service.request("/api/v1/economics/series?country=us");
    expect(us.body.data.totalMatching).toBe(series.filter((entry) => entry.active && entry.country === "US").length);
    expect((await service.request("/api/v1/economics/series?country=US,DE")).body.data.totalMatching).toBe(0);

    const euroArea = await service.request("/api/v1/economics/series?region=ea");
    expect(euroArea.body.data.series.length).toBeGreaterThan(0);
    expect(
      euroArea.body.data.series.every(
        (entry: { region: string; country: null }) => entry.region === "EA" && entry.country === null,
      ),
    ).toBe(true);
    expect((await service.request("/api/v1/economics/series?region=XX")).body.error.code).toBe("VALIDATION_FAILED");
  });

  it("truncates to limit (clamped to 500) but counts every match", async () => {
    const { body } = await service.request("/api/v1/economics/series?limit=2");
    expect(body.data.series).toHaveLength(2);
    expect(body.meta.truncated).toBe(false);
    expect(body.data.totalMatching).toBe(series.filter((entry) => entry.active).length);
    expect((await service.request("/api/v1/economics/series?limit=0")).status).toBe(400);
    expect((await service.request("/api/v1/economics/series?limit=99999")).status).toBe(200);
  });
});
