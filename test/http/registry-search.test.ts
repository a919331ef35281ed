import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../support/service.ts";

/**
 * `q=` on the series and indicator listings (issue 40) over the real registry (data/registry, rebuilt by the test
 * service): every word must match, case-insensitively, as the start of a word of the name, slug, scope or publisher;
 * results ranked by where the words match (name 4, slug 3, publisher 2, scope 1), ties in registry order.
 */

type Series = { slug: string; name: string; publisher: string; scope: string };
type Family = { slug: string; name: string; description: string };

const words = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
/** The documented score of a record for query words, null when a word matches none of its fields. */
function score(fields: [string, number][], query: string): number | null {
  let total = 0;
  for (const word of words(query)) {
    const weights = fields.filter(([text]) => words(text).some((candidate) => candidate.startsWith(word)));
    if (weights.length === 0) return null;
    total += Math.max(...weights.map(([, weight]) => weight));
  }
  return total;
}
const seriesScore = (entry: Series, query: string) =>
  score(
    [
      [entry.name, 4],
      [entry.slug, 3],
      [entry.publisher, 2],
      [entry.scope, 1],
    ],
    query,
  );

describe("searching the registry with q", () => {
  let service: RunningService;
  let registryOrder: Series[];
  const series = async (query: string) => {
    const answer = await service.request(`/api/v1/economics/series?${query}`);
    expect(answer.status, query).toBe(200);
    expect(answer.body.meta.totalMatching).toBe(answer.body.data.totalMatching);
    return answer.body.data.series as Series[];
  };
  const slugs = async (query: string) => (await series(query)).map((entry) => entry.slug);

  beforeAll(async () => {
    service = await startService();
    registryOrder = await series("limit=500");
    expect(registryOrder.length).toBeGreaterThan(20);
  });
  afterAll(() => service.close());

  it("finds series by every word, case-insensitively, words as prefixes, ranked by the documented rule", async () => {
    for (const query of ["unemployment", "euro area hicp", "bls price", "ECB rate", "month change", "unemp rate"]) {
      const found = await series(`q=${encodeURIComponent(query)}&limit=500`);
      const expected = registryOrder
        .map((entry, at) => ({ entry, at, score: seriesScore(entry, query) }))
        .filter((candidate) => candidate.score !== null)
        .sort((a, b) => b.score! - a.score! || a.at - b.at)
        .map((candidate) => candidate.entry.slug);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(
        found.map((entry) => entry.slug),
        query,
      ).toEqual(expected);
    }
    expect(await slugs("q=euro%20area%20hicp")).toEqual(["ea-hicp-all-items-annual-rate"]);
    expect(await slugs("q=HICP")).toEqual(await slugs("q=hicp"));
    expect(await slugs("q=unemp")).toEqual(await slugs("q=unemployment"));
    // Every word must match: a US HICP does not exist.
    expect(await slugs("q=us%20hicp")).toEqual([]);
    // A word in the name ranks before a word only in the scope.
    const index = await series("q=index&limit=500");
    const firstScopeOnly = index.findIndex((entry) => seriesScore(entry, "index") === 1);
    expect(firstScopeOnly).toBeGreaterThan(0);
    expect(index.slice(0, firstScopeOnly).every((entry) => /\bindex/i.test(entry.name))).toBe(true);
    expect(index.slice(firstScopeOnly).every((entry) => !/\bindex/i.test(entry.name))).toBe(true);
  });

  it("reads accents, case, repeated words and punctuation around words as the plain words", async () => {
    const plain = await slugs("q=euro%20area%20hicp");
    for (const q of [
      "EURO AREA HÏCP",
      "éuro àrea hicp",
      "euro, euro; area!! (hicp)",
      "  hicp\tarea euro  ",
      "ＨＩＣＰ euro area",
    ])
      expect(await slugs(`q=${encodeURIComponent(q)}`), q).toEqual(plain);
    // A word of the query is one the text has, never a part of one: "ro" starts no word of "euro area".
    expect(await slugs("q=ro%20area")).not.toContain("ea-hicp-all-items-annual-rate");
    expect(await slugs(`q=${encodeURIComponent("Zürich")}`)).toEqual([]);
  });

  it("combines with the other filters and the limit, counting every match", async () => {
    expect(await slugs("q=unemployment&country=US")).toEqual(["us-unemployment-rate"]);
    expect(await slugs("q=unemployment&region=EA")).toEqual(["ea-unemployment-rate"]);
    const all = await series("q=unemployment");
    const limited = await service.request("/api/v1/economics/series?q=unemployment&limit=2");
    expect(limited.body.data.series.map((entry: Series) => entry.slug)).toEqual(
      all.slice(0, 2).map((entry) => entry.slug),
    );
    expect(limited.body.data.totalMatching).toBe(all.length);
    // Blank is absent: the registry order.
    expect(await slugs("q=%20&limit=500")).toEqual(registryOrder.map((entry) => entry.slug));
  });

  it("finds indicator families by name, slug, description and the publishers of their series", async () => {
    const families = async (query: string) => {
      const answer = await service.request(`/api/v1/economics/indicators?${query}`);
      expect(answer.status, query).toBe(200);
      expect(answer.body.data.categories.length).toBeGreaterThan(5);
      return (answer.body.data.indicators as Family[]).map((family) => family.slug);
    };
    expect(await families("q=unemployment")).toEqual(["unemployment-rate"]);
    // The name first; a family whose description names industrial producers after it.
    expect(await families("q=industrial")).toEqual(["industrial-production", "producer-prices"]);
    const eurostat = await families("q=eurostat");
    expect(eurostat).toEqual(expect.arrayContaining(["harmonised-consumer-prices", "retail-trade"]));
    expect(eurostat).not.toContain("consumer-prices-us");
    expect(await families("q=producer&category=PRICES")).toEqual(["producer-prices"]);
    expect(await families("q=zzzz")).toEqual([]);
  });

  it("refuses a q that is too long, has too many words or no word, as VALIDATION_FAILED", async () => {
    for (const path of ["/api/v1/economics/series", "/api/v1/economics/indicators"]) {
      for (const q of ["x".repeat(101), "a b c d e f g h i", "!!!", "—"]) {
        const answer = await service.request(`${path}?q=${encodeURIComponent(q)}`);
        expect(answer.status, `${path} ${q}`).toBe(400);
        expect(answer.body.error.code).toBe("VALIDATION_FAILED");
      }
      expect((await service.request(`${path}?q=${"x".repeat(100)}`)).status).toBe(200);
      // Characters, not UTF-16 units: 100 letters outside the BMP (two units each) are within the limit.
      expect((await service.request(`${path}?q=${encodeURIComponent("𝐱".repeat(100))}`)).status).toBe(200);
    }
  });
});
