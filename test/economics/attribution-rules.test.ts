import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { ServedEventRecord } from "../../schemas/event-record.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import {
  eventPublishers,
  type NewsAttributionFacts,
  newsPublishers,
  observationPublishers,
  releasePublishers,
} from "../../server/economics/attribution.ts";
import { removeEconomicsDataDirs, SAMPLE_INGESTED_AT, sampleDataDir } from "../support/economics-index.ts";

/**
 * The rules that decide which publishers an economics answer names, on the records the real sample ingestion stored,
 * and on copies of them modified here (labelled below) to reach cases the sample does not hold: a release listed by
 * another publisher's calendar, a derived value shown on an event or linked from an announcement.
 */

afterAll(removeEconomicsDataDirs);

const summary = (records: readonly { sourceId: string; modifiedByService: boolean }[]) =>
  records.map((record) => [record.sourceId, record.modifiedByService]);

describe("which publishers an economics answer carries", () => {
  let events: ServedEventRecord[];
  let news: NewsAttributionFacts[];
  let registry: BuiltRegistry;

  beforeAll(async () => {
    const dir = await sampleDataDir();
    const db = new Database(join(dir, DATA_FILES.index), { readonly: true });
    events = (db.prepare("SELECT record FROM events ORDER BY scheduled_date, id").pluck().all() as string[]).map(
      (row) => JSON.parse(row) as ServedEventRecord,
    );
    news = (db.prepare("SELECT record FROM news ORDER BY id").pluck().all() as string[]).map(
      (row) => JSON.parse(row) as NewsAttributionFacts,
    );
    db.close();
    registry = readRegistrySources(new Date(SAMPLE_INGESTED_AT));
  });

  const of = (publisher: string) => events.find((event) => event.release.publisher === publisher)!;

  it("names each event's publisher once, in the table's order", () => {
    const ids = (records: readonly { sourceId: string }[]) => records.map((record) => record.sourceId);
    expect(ids(eventPublishers(events, registry).records())).toEqual(["BLS", "EUROSTAT", "ECB"]);
    expect(ids(eventPublishers([of("ECB")], registry).records())).toEqual(["ECB"]);
    expect(eventPublishers([], registry).records()).toEqual([]);
  });

  it("adds the publisher of another calendar that lists the release (modified copy: an ECB source added to a Eurostat event)", () => {
    const eurostat = of("EUROSTAT");
    const listedTwice: ServedEventRecord = {
      ...eurostat,
      sources: [
        ...eurostat.sources,
        { sourceId: "central-bank-statistics-calendar", sourceEventId: "modified-copy", title: eurostat.title },
      ],
    };
    expect(summary(eventPublishers([listedTwice], registry).records())).toEqual([
      ["EUROSTAT", false],
      ["ECB", false],
    ]);
  });

  it("marks the publisher modified when an event shows a derived value (modified copy: a CPI event given the derived series' value)", () => {
    const cpi = events.find((event) => event.release.slug === "bls-consumer-price-index")!;
    const derived = {
      seriesSlug: "us-cpi-all-items-12-month-change",
      referencePeriod: "2023-09",
      value: "3.7",
      publicationStatus: null,
      publisherNote: null,
      vintage: 1,
      recordedAt: "2023-10-12T12:30:00.000Z",
      revisions: [],
      provenance: {
        sourceId: "bls-api",
        adapter: "bls-observations",
        derivation: "SERVICE_DERIVED" as const,
        transformation: [],
        document: null,
      },
    };
    const withDerived = { ...cpi, values: { ...cpi.values, actual: derived } };
    expect(summary(eventPublishers([withDerived], registry).records())).toEqual([["BLS", true]]);
    // Without the registry the derivation is unknown: the value counts as the release publisher's own.
    expect(summary(eventPublishers([withDerived], null).records())).toEqual([["BLS", false]]);
  });

  it("names a series' publisher only when the page holds periods, modified for a derived series", () => {
    const bySlug = (slug: string) => registry.series.find((series) => series.slug === slug)!;
    expect(summary(observationPublishers(bySlug("us-cpi-all-items-12-month-change"), 12).records())).toEqual([
      ["BLS", true],
    ]);
    expect(summary(observationPublishers(bySlug("ea-unemployment-rate"), 1).records())).toEqual([["EUROSTAT", false]]);
    expect(observationPublishers(bySlug("ea-unemployment-rate"), 0).records()).toEqual([]);
  });

  it("leaves out release records with nothing ingested, and marks a publisher with a derived value modified", () => {
    const release = (slug: string, availability = "AVAILABLE") => ({ series: { slug }, availability });
    const published = [
      release("us-cpi-all-items-nsa"),
      release("ea-unemployment-rate"),
      release("ea-industrial-production-index", "UNAVAILABLE"),
    ];
    expect(summary(releasePublishers(published, registry).records())).toEqual([
      ["BLS", false],
      ["EUROSTAT", false],
    ]);
    // One derived value among a publisher's rows makes its record modified.
    const withDerived = [release("us-cpi-all-items-nsa"), release("us-cpi-all-items-12-month-change")];
    expect(summary(releasePublishers(withDerived, registry).records())).toEqual([["BLS", true]]);
  });

  it("names each announcement's publisher, and the publisher of a linked value (modified copy: a derived value linked)", () => {
    expect(summary(newsPublishers(news, registry).records())).toEqual([
      ["BLS", false],
      ["ECB", false],
    ]);
    const ecbNotice = news.find((item) => item.source === "ecb-press-feed")!;
    const linked = {
      ...ecbNotice,
      links: { series: [{ slug: "us-cpi-all-items-12-month-change", value: { value: "3.7" } }] },
    };
    expect(summary(newsPublishers([linked], registry).records())).toEqual([
      ["BLS", true],
      ["ECB", false],
    ]);
    const calendarAnnouncement = { source: "eu-stats-release-calendar", links: { series: [] } };
    expect(summary(newsPublishers([calendarAnnouncement], registry).records())).toEqual([["EUROSTAT", false]]);
  });
});
