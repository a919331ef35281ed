import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import { PUBLIC_OBSERVATIONS_CSV } from "../../schemas/responses/csv-tables.ts";
import { prepareCsvAnswer } from "../../server/http/csv-answer.ts";
import { chooseRepresentation } from "../../server/http/negotiation.ts";
import { encodeCursor } from "../../server/http/params.ts";
import { parseCsv } from "../support/contract.ts";

const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return "no error";
};

describe("choosing JSON or CSV", () => {
  it("takes format first, any case, blank as absent; else Accept by q-value, JSON for */* or when neither is named", () => {
    expect(chooseRepresentation("?format=csv", "application/json")).toBe("csv");
    expect(chooseRepresentation("?format=CSV", null)).toBe("csv");
    expect(chooseRepresentation("?format=json", "text/csv")).toBe("json");
    expect(chooseRepresentation("?format=%20", "text/csv")).toBe("csv");
    expect(chooseRepresentation("?%66ormat=csv", null)).toBe("csv");
    expect(chooseRepresentation("", null)).toBe("json");
    expect(chooseRepresentation("", "text/csv")).toBe("csv");
    expect(chooseRepresentation("", "text/csv, application/json")).toBe("csv");
    expect(chooseRepresentation("", "application/json, text/csv")).toBe("json");
    expect(chooseRepresentation("", "text/csv;q=0.5, application/json")).toBe("json");
    expect(chooseRepresentation("", "*/*")).toBe("json");
    expect(chooseRepresentation("", "text/*")).toBe("csv");
    expect(chooseRepresentation("", "text/html")).toBe("json");
    // At equal weight the range named more exactly wins, then the one named first.
    expect(chooseRepresentation("", "text/*, application/json")).toBe("json");
    expect(chooseRepresentation("", "application/*, text/csv")).toBe("csv");
  });

  it("matches Accept ranges with parameters to the types as sent (the answer's own Content-Type asks for CSV)", () => {
    expect(chooseRepresentation("", "text/csv; charset=utf-8")).toBe("csv");
    expect(chooseRepresentation("", "text/csv;header=present")).toBe("csv");
    expect(chooseRepresentation("", "text/csv; charset=utf-8; header=present")).toBe("csv");
    expect(chooseRepresentation("", "text/csv; charset=UTF-8")).toBe("csv");
    expect(chooseRepresentation("", "application/json; charset=utf-8, text/csv;q=0.5")).toBe("json");
    // A form this service does not write is not CSV: JSON, never 406.
    expect(chooseRepresentation("", "text/csv; header=absent")).toBe("json");
    expect(chooseRepresentation("", "text/csv; charset=iso-8859-1")).toBe("json");
    expect(code(() => chooseRepresentation("?format=xml", null))).toBe("VALIDATION_FAILED");
  });

  it("refuses every other format and never fails on any Accept header", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (format, accept) => {
        const search = `?${new URLSearchParams({ format })}`;
        const wanted = format.trim().toLowerCase();
        const outcome = code(() => chooseRepresentation(search, accept));
        if (wanted === "" || wanted === "json" || wanted === "csv") expect(outcome).toBe("no error");
        else expect(outcome).toBe("VALIDATION_FAILED");
        expect(["json", "csv"]).toContain(chooseRepresentation("", accept));
      }),
    );
  });
});

describe("the CSV form", () => {
  const series = { slug: "s" };
  const observation = (period: string, value: string | null, note: string | null = null) => ({
    referencePeriod: period,
    value,
    publicationStatus: null,
    publisherNote: note,
    revisionCount: 0,
    isRevision: false,
    previousValue: null,
    sourceUpdatedAt: null,
    ingestedAt: "2026-11-21T06:00:00.000Z",
    provenance: { derivation: "PUBLISHER_VALUE", sourceId: "x", document: null },
  });
  const request = { pathname: "/api/public/v1/economics/observations", search: "?series=s&limit=3" };

  it("quotes commas, quotes and every line break, writes null as empty and ends records with CRLF", () => {
    const notes = ['say "hi", then go', "two\nlines", "carriage\rreturn", "crlf\r\nend"];
    const data = { series, observations: notes.map((note, index) => observation(`2024-0${index + 1}`, "-0.10", note)) };
    const answer = prepareCsvAnswer({ data }, PUBLIC_OBSERVATIONS_CSV, request);
    const text = answer.data.content.toString();
    expect(text.split("\r\n")[0]).toBe(PUBLIC_OBSERVATIONS_CSV.tables[0]!.columns.map((c) => c.name).join(","));
    expect(text).toContain('"say ""hi"", then go"');
    expect(text).toContain('"two\nlines"');
    expect(text).toContain('"carriage\rreturn"');
    const table = parseCsv(text);
    expect(table.rows.map((row) => row[table.header.indexOf("publisherNote")])).toEqual(notes);
    expect(table.rows.map((row) => row[table.header.indexOf("value")])).toEqual(notes.map(() => "-0.10"));
    expect(table.rows[0]![table.header.indexOf("previousValue")]).toBe("");
    expect(table.rows[0]![table.header.indexOf("isRevision")]).toBe("false");
    // An empty page is the header row alone.
    expect(
      prepareCsvAnswer({ data: { series, observations: [] } }, PUBLIC_OBSERVATIONS_CSV, request).data.content,
    ).toBe(`${table.header.join(",")}\r\n`);
  });

  it("writes every cell as the JSON has it: no formula guard, negative numbers exact, unicode as UTF-8 without a BOM", () => {
    // The decision documented in docs/api.md (CSV, "Opened in a spreadsheet"): a guard would change values and text.
    const notes = ["=SUM(A1:A2)", "+1 (revised)", "-", "@here", "Zürich, “Ünïcödé” 🌍", "\tindented"];
    const values = ["-0.3", "+0.1", "-1.0E-5", "-310.326", "0", "-0"];
    const data = {
      series,
      observations: notes.map((note, index) => observation(`2024-0${index + 1}`, values[index]!, note)),
    };
    const text = prepareCsvAnswer({ data }, PUBLIC_OBSERVATIONS_CSV, request).data.content.toString();
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const table = parseCsv(text);
    expect(table.rows.map((row) => row[table.header.indexOf("publisherNote")])).toEqual(notes);
    expect(table.rows.map((row) => row[table.header.indexOf("value")])).toEqual(values);
    // Only a field holding a comma, a quote or a line break is quoted.
    expect(text).toContain(",-0.3,,=SUM(A1:A2),");
    expect(text).toContain(',"Zürich, “Ünïcödé” 🌍",');
  });

  it("cuts a page over the response ceiling after a whole row, its next link resuming there", () => {
    const note = "n".repeat(10_000);
    const rows = Array.from({ length: 150 }, (_, index) => observation(`p${index}`, String(index), note));
    const firstItems = (n: number) => ({
      data: { series, observations: rows.slice(0, n) },
      meta: { nextCursor: encodeCursor(n), attributionRecords: [] },
    });
    const answer = prepareCsvAnswer(
      { ...firstItems(rows.length), cut: { count: rows.length, firstItems } },
      PUBLIC_OBSERVATIONS_CSV,
      request,
    );
    expect(answer.fixedBytes).toBeLessThanOrEqual(RESPONSE_CEILING_BYTES);
    const served = parseCsv(answer.data.content.toString()).rows.length;
    expect(served).toBeGreaterThan(90);
    expect(served).toBeLessThan(rows.length);
    expect(answer.headers?.link).toBe(
      `</api/public/v1/economics/observations?series=s&limit=3&cursor=${encodeCursor(served)}&format=csv>; rel="next"`,
    );
  });
});
