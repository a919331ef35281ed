import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseBlsNewsAtom } from "../../cli/ingest/adapters/bls-news-atom.ts";
import { collapseDoubledSlashes, parseEcbPressRss } from "../../cli/ingest/adapters/ecb-press-rss.ts";
import { UpstreamDocumentError } from "../../cli/ingest/adapters/upstream-document-error.ts";
import { fixture, SAMPLES_DIR } from "./news-support.ts";

/** The parsers against CONSTRUCTED documents (test/fixtures/feeds/README.md): no real recording of either feed exists. */

function refusal(parse: () => unknown): UpstreamDocumentError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamDocumentError);
    return error as UpstreamDocumentError;
  }
  throw new Error("the document was accepted");
}

describe("BLS announcement feed (Atom served as .rss)", () => {
  const { items, skipped } = parseBlsNewsAtom(fixture("bls-atom-variations.xml"));
  const byId = new Map(items.map((item) => [item.sourceItemId.replace(/^.*archives\//, ""), item]));

  it("reads every usable entry, in feed order, as a bls-news-feed announcement", () => {
    expect(items.map((item) => item.sourceItemId)).toEqual([
      "https://www.bls.gov/news.release/archives/cpi_10242025.htm",
      "https://www.bls.gov/news.release/archives/empsit_12162025.htm",
      "https://www.bls.gov/news.release/archives/prod2_08072025.htm",
      "https://www.bls.gov/news.release/archives/realer_12182025.htm",
      "https://www.bls.gov/news.release/archives/ecec_12122025.htm",
    ]);
    expect(new Set(items.map((item) => item.source))).toEqual(new Set(["bls-news-feed"]));
  });

  it("takes a link without rel as the alternate page, and a Z timestamp as it is", () => {
    expect(byId.get("cpi_10242025.htm")).toEqual({
      source: "bls-news-feed",
      sourceItemId: "https://www.bls.gov/news.release/archives/cpi_10242025.htm",
      title: "Consumer Price Index - September 2025",
      url: "https://www.bls.gov/news.release/archives/cpi_10242025.htm",
      publishedAt: "2025-10-24T12:30:00.000Z",
      updatedAt: "2025-10-24T12:30:00.000Z",
    });
  });

  it("prefers rel=alternate over an extra rel=self link listed first, and published over updated", () => {
    const item = byId.get("empsit_12162025.htm")!;
    expect(item.url).toBe("https://www.bls.gov/news.release/archives/empsit_12162025.htm");
    expect(item.url).not.toContain("/feed/");
    // 07:51 -05:00 (winter) is 12:51Z; the later <updated> is kept apart, not used as the publication time.
    expect(item.publishedAt).toBe("2025-12-16T12:51:00.000Z");
    expect(item.updatedAt).toBe("2025-12-16T13:30:00.000Z");
  });

  it("decodes a type=html title (&amp;, &#8211;, an HTML title escaped twice) and collapses its whitespace", () => {
    expect(byId.get("prod2_08072025.htm")!.title).toBe("Productivity & Costs \u2013 Second Quarter 2025");
    expect(byId.get("ecec_12122025.htm")!.title).toBe("Employer Costs for Employee Compensation \u2013 September 2025");
  });

  it("converts summer (-04:00) and winter (-05:00) offsets, with or without fractional seconds, to UTC", () => {
    expect(byId.get("prod2_08072025.htm")!.publishedAt).toBe("2025-08-07T12:30:00.000Z");
    expect(byId.get("prod2_08072025.htm")!.updatedAt).toBeNull();
    expect(byId.get("ecec_12122025.htm")!.publishedAt).toBe("2025-12-12T15:00:00.000Z");
  });

  it("dates an entry without published by its updated", () => {
    expect(byId.get("realer_12182025.htm")).toMatchObject({
      publishedAt: "2025-12-18T13:30:00.000Z",
      updatedAt: "2025-12-18T13:30:00.000Z",
    });
  });

  it("skips, without failing the document, an entry with no link, one with only a self link and one with a zoneless time", () => {
    expect(skipped.map((entry) => entry.record)).toEqual([
      "https://www.bls.gov/news.release/archives/jolts_12092025.htm",
      "https://www.bls.gov/news.release/archives/ppi_11252025.htm",
      "https://www.bls.gov/news.release/archives/eci_12102025.htm",
    ]);
    for (const entry of skipped) expect(entry.reason).toEqual(expect.any(String));
  });

  it("keeps an identity that looks like a number exactly as written", () => {
    const document = `<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
      <entry><title>2025</title><id>00123456789012345678901</id><link href="https://www.bls.gov/x.htm"/><published>2025-10-24T08:30:00-04:00</published></entry></feed>`;
    expect(parseBlsNewsAtom(document).items[0]).toMatchObject({
      sourceItemId: "00123456789012345678901",
      title: "2025",
    });
  });

  it("reads the constructed sample feed of the archive: six entries, none skipped", () => {
    const sample = parseBlsNewsAtom(readFileSync(join(SAMPLES_DIR, "bls-news-feed", "bls-latest-constructed.xml")));
    expect(sample.skipped).toEqual([]);
    expect(sample.items.map((item) => [item.title, item.publishedAt])).toEqual([
      ["Consumer Price Index - February 2026", "2026-03-11T12:30:00.000Z"],
      ["Consumer Price Index and Real Earnings - December 2025", "2026-01-13T13:30:00.000Z"],
      ["Real Earnings - November 2025", "2025-12-18T13:30:00.000Z"],
      ["The Employment Situation - November 2025", "2025-12-16T12:51:00.000Z"],
      ["Employer Costs for Employee Compensation - September 2025", "2025-12-12T15:00:00.000Z"],
      ["Consumer Price Index - September 2025", "2025-10-24T12:30:00.000Z"],
    ]);
    expect(sample.items[3]!.url).toBe("https://www.bls.gov/news.release/archives/empsit_12162025.htm");
  });
});

describe("ECB press feed (RSS 2.0)", () => {
  const { items, skipped } = parseEcbPressRss(fixture("ecb-rss-variations.xml"));

  it("reads every usable item, in feed order", () => {
    expect(items.map((item) => item.title)).toEqual([
      "Monetary policy decisions",
      "Christine Lagarde: Hearing at the Committee on Economic and Monetary Affairs of the European Parliament",
      "Monetary policy decisions",
      "ECB publishes supervisory banking statistics for the fourth quarter of 2025",
    ]);
    expect(new Set(items.map((item) => item.source))).toEqual(new Set(["ecb-press-feed"]));
    expect(items.every((item) => item.updatedAt === null)).toBe(true);
  });

  it("collapses the doubled slash of the link but keeps the raw guid (isPermaLink=true) as the identity", () => {
    expect(items[0]).toEqual({
      source: "ecb-press-feed",
      sourceItemId: "https://www.ecb.europa.eu//press/pr/date/2026/html/ecb.mp260723~4b1e7c2d90.en.html",
      title: "Monetary policy decisions",
      url: "https://www.ecb.europa.eu/press/pr/date/2026/html/ecb.mp260723~4b1e7c2d90.en.html",
      publishedAt: "2026-07-23T12:15:00.000Z",
      updatedAt: null,
    });
    expect(items[2]!.url).toBe("https://www.ecb.europa.eu/press/pr/date/2026/html/ecb.mp260205~0c1d2e3f4a.en.html");
    expect(items[2]!.sourceItemId).toBe(
      "https://www.ecb.europa.eu//press/pr/date/2026/html/ecb.mp260205~0c1d2e3f4a.en.html",
    );
  });

  it("trims a title that starts with a space", () => {
    expect(items[1]!.title.startsWith("Christine Lagarde")).toBe(true);
  });

  it("reads summer +0200 and winter +0100 pubDates as UTC", () => {
    expect(items[0]!.publishedAt).toBe("2026-07-23T12:15:00.000Z");
    expect(items[1]!.publishedAt).toBe("2026-02-05T14:00:00.000Z");
    expect(items[2]!.publishedAt).toBe("2026-02-05T13:15:00.000Z");
    expect(items[3]!.publishedAt).toBe("2026-04-08T08:00:00.000Z");
  });

  it("uses the link as written as the identity of an item without guid", () => {
    expect(items[3]!.sourceItemId).toBe(
      "https://www.ecb.europa.eu//press/pr/date/2026/html/ecb.pr260408~7a8b9c0d1e.en.html",
    );
    expect(items[3]!.url).toBe("https://www.ecb.europa.eu/press/pr/date/2026/html/ecb.pr260408~7a8b9c0d1e.en.html");
  });

  it("skips, without failing the document, an item with no pubDate and one with an unreadable pubDate", () => {
    expect(skipped.map((item) => item.record)).toEqual([
      "https://www.ecb.europa.eu//press/accounts/2026/html/ecb.mg260226~5f6e7d8c9b.en.html",
      "https://www.ecb.europa.eu//press/inter/date/2026/html/ecb.in260301~2b3c4d5e6f.en.html",
    ]);
  });

  it("collapses only the slashes after the host", () => {
    expect(collapseDoubledSlashes("https://www.ecb.europa.eu//press/key/x.pdf")).toBe(
      "https://www.ecb.europa.eu/press/key/x.pdf",
    );
    expect(collapseDoubledSlashes("https://www.ecb.europa.eu/press/key/x.pdf")).toBe(
      "https://www.ecb.europa.eu/press/key/x.pdf",
    );
    expect(collapseDoubledSlashes("http://www.ecb.europa.eu////press/")).toBe("http://www.ecb.europa.eu/press/");
  });

  it("keeps a guid that looks like a number exactly as written", () => {
    const document = `<rss version="2.0"><channel><title>t</title><item><title>1.50</title><link>https://www.ecb.europa.eu//press/x.html</link>
      <guid isPermaLink="false">007</guid><pubDate>Thu, 23 Jul 2026 14:15:00 +0200</pubDate></item></channel></rss>`;
    expect(parseEcbPressRss(document).items[0]).toMatchObject({ sourceItemId: "007", title: "1.50" });
  });

  it("reads the real recording of the sample archive (24 June 2026): fifteen items, none skipped", () => {
    const document = readFileSync(join(SAMPLES_DIR, "ecb-press-feed", "ecb-press-rss-2026-06-24.xml"));
    const sample = parseEcbPressRss(document);
    expect(sample.skipped).toEqual([]);
    // Counted in the raw bytes with a regular expression, independently of the XML parser.
    expect(sample.items).toHaveLength([...document.toString("utf8").matchAll(/<item>/g)].length);
    expect(sample.items).toHaveLength(15);
    expect(sample.items.map((item) => [item.title, item.publishedAt]).slice(0, 4)).toEqual([
      ["ECB reports on progress towards euro adoption", "2026-06-24T10:00:00.000Z"],
      ["Iceland joins TIPS for instant payments", "2026-06-24T08:00:00.000Z"],
      ["Boris Vujčić: Outlook for the euro area economy and monetary policy", "2026-06-23T13:55:00.000Z"],
      ["Philip R. Lane: Introductory remarks", "2026-06-23T00:00:00.000Z"],
    ]);
    expect(sample.items.at(-1)).toEqual({
      source: "ecb-press-feed",
      sourceItemId: "https://www.ecb.europa.eu//press/pr/date/2026/html/ecb.pr260612~ab34769159.en.html",
      title: "EU structural financial indicators: end of 2025",
      url: "https://www.ecb.europa.eu/press/pr/date/2026/html/ecb.pr260612~ab34769159.en.html",
      publishedAt: "2026-06-12T08:00:00.000Z",
      updatedAt: null,
    });
    // Every title of the recording starts with a space; every link has the doubled slash; speeches may link a PDF.
    expect(
      sample.items.every(
        (item) => item.title === item.title.trim() && item.sourceItemId.includes("eu//") && !item.url.includes("eu//"),
      ),
    ).toBe(true);
    expect(sample.items[2]!.url).toBe(
      "https://www.ecb.europa.eu/press/key/date/2026/html/ecb.sp260623_1~e421434341.en.pdf",
    );
  });
});

describe("malformed documents are refused whole (UpstreamDocumentError, malformed)", () => {
  const parsers = [
    ["bls-news-feed", parseBlsNewsAtom],
    ["ecb-press-feed", parseEcbPressRss],
  ] as const;

  it.each(["not-xml.html", "truncated-atom.xml", "truncated-after-entry.xml", "not-a-feed.xml"])("%s", (name) => {
    for (const [source, parse] of parsers) {
      const error = refusal(() => parse(fixture(name)));
      expect(error.reason).toBe("malformed");
      expect(error.source).toBe(source);
    }
  });

  it("refuses documents that are not XML at all: empty, blank, JSON", () => {
    for (const text of ["", "   \n", '{"status":"REQUEST_NOT_PROCESSED"}']) {
      for (const [, parse] of parsers) expect(refusal(() => parse(text)).reason).toBe("malformed");
    }
  });

  it("refuses the other publisher's format: RSS to the Atom parser, Atom to the RSS parser", () => {
    expect(refusal(() => parseBlsNewsAtom(fixture("ecb-rss-variations.xml"))).message).toMatch(/Atom/);
    expect(refusal(() => parseEcbPressRss(fixture("bls-atom-variations.xml"))).message).toMatch(/RSS/);
  });

  it("accepts a well-formed feed with no items as an empty snapshot, not an error", () => {
    expect(parseBlsNewsAtom('<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>')).toEqual({
      items: [],
      skipped: [],
    });
    expect(parseEcbPressRss('<rss version="2.0"><channel><title>t</title></channel></rss>')).toEqual({
      items: [],
      skipped: [],
    });
  });
});
