import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOCUMENT_FAILURES } from "../../cli/ingest/adapters/document-failures.ts";
import { UpstreamDocumentError } from "../../cli/ingest/adapters/upstream-document-error.ts";
import { SOURCES } from "../../cli/ingest/sources.ts";

/**
 * One fault, one wording, whichever publisher sent the document: an empty JSON answer was "not JSON" for two
 * sources and "the document is empty" for two others, and an empty or garbage `.ics` in the ECB meetings folder was
 * reported as "the page is truncated (no closing </html>)".
 */

const RETRIEVED_AT = "2026-11-21T06:00:00.000Z";
const refusal = (slug: string, body: Buffer): string => {
  const source = SOURCES.find((candidate) => candidate.slug === slug)!;
  try {
    if (source.kind === "calendar") source.parse(body, RETRIEVED_AT);
    else source.parse(body);
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamDocumentError);
    return (error as Error).message;
  }
  throw new Error(`${slug} accepted ${JSON.stringify(body.toString("utf8").slice(0, 40))}`);
};

describe("the vocabulary of refused documents", () => {
  it("calls an empty document empty for every source", () => {
    for (const body of ["", "  \r\n\t", "\uFEFF", "\uFEFF\n\n"]) {
      for (const source of SOURCES) {
        expect(refusal(source.slug, Buffer.from(body, "utf8")), source.slug).toBe(
          `${source.slug}: ${DOCUMENT_FAILURES.empty}`,
        );
      }
    }
  });

  it("calls a broken JSON document not JSON for every source that reads JSON", () => {
    // eurostat-sdmx and ecb-data take a document opening with `{` as JSON, the rest as CSV.
    for (const slug of ["eu-stats-release-calendar", "bls-api", "eurostat-sdmx", "ecb-data"]) {
      expect(refusal(slug, Buffer.from('{"results": [1, 2', "utf8")), slug).toBe(
        `${slug}: ${DOCUMENT_FAILURES.notJson}`,
      );
    }
  });

  it("says what a garbage or cut calendar is, never that a page lost its </html>", () => {
    const meetings = "central-bank-meetings-calendar";
    const garbage = refusal(meetings, Buffer.from("PK\u0003\u0004 not a calendar at all\n", "latin1"));
    expect(garbage).not.toContain("</html>");
    expect(garbage).toContain("iCalendar");
    expect(refusal(meetings, Buffer.from("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\n"))).toBe(
      `${meetings}: ${DOCUMENT_FAILURES.truncatedICalendar}`,
    );
    // The real recording, cut after its first event: a calendar cut short, in the calendar's words.
    const recorded = readFileSync(
      "data/samples/central-bank-meetings-calendar/ecb-govc-meetings-2026-05-01.derived.ics",
    );
    const cut = recorded.subarray(0, recorded.indexOf("END:VEVENT") + 12);
    expect(refusal(meetings, cut)).toBe(`${meetings}: ${DOCUMENT_FAILURES.truncatedICalendar}`);
    expect(refusal("labour-stats-release-schedule", Buffer.from("<html><body>Access Denied</body></html>"))).toBe(
      `labour-stats-release-schedule: ${DOCUMENT_FAILURES.notICalendar}`,
    );
  });

  it("words these failures only in the vocabulary, not again in an adapter", () => {
    const folder = "cli/ingest/adapters";
    const worded = Object.values(DOCUMENT_FAILURES).filter((entry) => typeof entry === "string") as string[];
    for (const name of readdirSync(folder).filter((file) => file !== "document-failures.ts")) {
      const code = readFileSync(`${folder}/${name}`, "utf8");
      for (const words of [...worded, "the document is", "not JSON", "not well-formed", "not an iCalendar"])
        expect(code.includes(`"${words}`) || code.includes(`\`${words}`), `${name} words "${words}" itself`).toBe(
          false,
        );
    }
  });
});
