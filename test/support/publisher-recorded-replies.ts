import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { contentTypeOf, PUBLISHER_PATHS } from "./publisher-paths.ts";

/**
 * How the publisher stand-in (publisher-standin.ts) answers a request with the recorded documents of data/samples:
 *
 * - calendars and announcement feeds: the newest sample of the source (file-name order is fetch order); a feed
 *   with no sample gets an empty-but-valid feed;
 * - BLS API (POST): a REQUEST_SUCCEEDED envelope holding, for each requested `seriesid`, that series as the last
 *   sample holding it has it (a requested series with no sample comes back with no data, as BLS does);
 * - Eurostat SDMX-CSV and ECB csvdata: the sample rows of the dataset/flow that match the key (SDMX key syntax:
 *   `.`-separated positions, `+` for alternatives, empty for any); no matching rows gives the header alone.
 *   `startPeriod` is not applied (the samples are old).
 */

/**
 * Sources whose publisher serves one document at a fixed path: the newest sample of the source's folder is served,
 * or, where `empty` is given and the folder has no sample, that empty-but-valid document.
 */
const SINGLE_DOCUMENTS: { path: string; source: string; empty?: string }[] = [
  { path: PUBLISHER_PATHS.blsSchedule, source: "labour-stats-release-schedule" },
  { path: PUBLISHER_PATHS.eurostatCalendar, source: "eu-stats-release-calendar" },
  { path: PUBLISHER_PATHS.ecbMeetings, source: "central-bank-meetings-calendar" },
  { path: PUBLISHER_PATHS.ecbStatistics, source: "central-bank-statistics-calendar" },
  {
    path: PUBLISHER_PATHS.blsNewsFeed,
    source: "bls-news-feed",
    empty: `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>BLS Latest Numbers</title></feed>\n`,
  },
  {
    path: PUBLISHER_PATHS.ecbPressFeed,
    source: "ecb-press-feed",
    empty: `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>ECB press releases</title></channel></rss>\n`,
  },
];

export const DEFAULT_SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));

/** A request as the stand-in received and recorded it. */
export interface StandinRequest {
  method: string;
  path: string;
  query: string;
  body: string;
}

interface Samples {
  /** Newest recorded document per fixed-path source (calendars, feeds). */
  single: Map<string, Buffer>;
  /** BLS API series entries by series id (the last sample holding the series wins). */
  blsSeries: Map<string, unknown>;
  /** Eurostat SDMX-CSV documents by lower-case dataset code. */
  eurostat: Map<string, CsvDocument>;
  /** ECB csvdata documents, all flows. */
  ecb: CsvDocument[];
}

interface CsvDocument {
  lineEnd: string;
  header: string;
  headerFields: string[];
  rows: { text: string; fields: string[] }[];
}

function filesOf(dir: string, source: string): string[] {
  const folder = join(dir, source);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => !name.startsWith(".") && extname(name) !== ".md" && !name.endsWith(".fetch.json"))
    .sort()
    .map((name) => join(folder, name));
}

export function loadSamples(dir: string): Samples {
  const single = new Map<string, Buffer>();
  for (const { path, source, empty } of SINGLE_DOCUMENTS) {
    const file = filesOf(dir, source).at(-1);
    if (file) single.set(path, readFileSync(file));
    else if (empty !== undefined) single.set(path, Buffer.from(empty));
  }

  const blsSeries = new Map<string, unknown>();
  for (const file of filesOf(dir, "bls-api")) {
    const document = JSON.parse(readFileSync(file, "utf8")) as { Results?: { series?: unknown[] }; series?: unknown[] };
    for (const entry of document.Results?.series ?? document.series ?? []) {
      const id = (entry as { seriesID?: unknown }).seriesID;
      if (typeof id === "string") blsSeries.set(id, entry);
    }
  }

  const eurostat = new Map<string, CsvDocument>();
  for (const file of filesOf(dir, "eurostat-sdmx")) {
    const document = readCsv(readFileSync(file, "utf8"));
    const dataflow = document.rows[0]?.fields[document.headerFields.indexOf("DATAFLOW")] ?? "";
    const dataset = /^(?:[A-Za-z0-9_.]+:)?([A-Za-z0-9_]+)/.exec(dataflow)?.[1]?.toLowerCase();
    if (dataset) eurostat.set(dataset, document);
  }
  // csvdata documents only: an archived SDMX-JSON answer (the €STR recording) is not what a csvdata request gets.
  const ecb = filesOf(dir, "ecb-data")
    .filter((file) => extname(file) !== ".json")
    .map((file) => readCsv(readFileSync(file, "utf8")));
  return { single, blsSeries, eurostat, ecb };
}

/** Good enough for the samples: fields may be quoted (with commas inside), records are single lines. */
function readCsv(text: string): CsvDocument {
  const lineEnd = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(lineEnd).filter((line) => line !== "");
  const [header = "", ...rows] = lines;
  return {
    lineEnd,
    header,
    headerFields: splitCsvLine(header),
    rows: rows.map((row) => ({ text: row, fields: splitCsvLine(row) })),
  };
}

function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      fields.push(field);
      field = "";
    } else field += char;
  }
  fields.push(field);
  return fields;
}

/** SDMX key syntax: one position per dimension, `+` between alternatives, empty for any. */
function keyMatches(key: string, values: string[]): boolean {
  const positions = key.split(".");
  if (positions.length !== values.length) return false;
  return positions.every((position, index) => position === "" || position.split("+").includes(values[index]!));
}

function csvAnswer(document: CsvDocument, keep: (row: { fields: string[] }) => boolean): Buffer {
  return Buffer.from(
    [document.header, ...document.rows.filter(keep).map((row) => row.text), ""].join(document.lineEnd),
  );
}

export function recordedAnswer(
  samples: Samples,
  request: StandinRequest,
  target: URL,
): { contentType: string; body: Buffer } | null {
  const path = request.path;
  const single = samples.single.get(path);
  if (single && request.method === "GET") return { contentType: contentTypeOf(path), body: single };

  if (path === PUBLISHER_PATHS.blsApi && request.method === "POST") {
    let ids: string[] = [];
    try {
      const body = JSON.parse(request.body) as { seriesid?: unknown };
      ids = Array.isArray(body.seriesid) ? body.seriesid.filter((id): id is string => typeof id === "string") : [];
    } catch {
      return {
        contentType: "application/json",
        body: Buffer.from(
          JSON.stringify({ status: "REQUEST_NOT_PROCESSED", responseTime: 1, message: ["Invalid JSON"], Results: {} }),
        ),
      };
    }
    const missing = ids.filter((id) => !samples.blsSeries.has(id));
    const series = ids.map((id) => samples.blsSeries.get(id) ?? { seriesID: id, data: [] });
    const message = missing.map((id) => `No Data Available for Series ${id}`);
    return {
      contentType: "application/json",
      body: Buffer.from(JSON.stringify({ status: "REQUEST_SUCCEEDED", responseTime: 1, message, Results: { series } })),
    };
  }

  const eurostat = /^\/eurostat\/api\/dissemination\/sdmx\/2\.1\/data\/([^/]+)\/([^/]*)$/.exec(path);
  if (eurostat && request.method === "GET") {
    const document = samples.eurostat.get(decodeURIComponent(eurostat[1]!).toLowerCase());
    const key = decodeURIComponent(eurostat[2]!);
    if (!document)
      return {
        contentType: "text/csv; charset=utf-8",
        body: Buffer.from("DATAFLOW,LAST UPDATE,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\n"),
      };
    const first = document.headerFields.indexOf("LAST UPDATE") + 1;
    const last = document.headerFields.indexOf("TIME_PERIOD");
    return {
      contentType: "text/csv; charset=utf-8",
      body: csvAnswer(document, (row) => keyMatches(key, row.fields.slice(first, last))),
    };
  }

  const ecb = /^\/service\/data\/([^/]+)\/([^/]*)$/.exec(path);
  if (ecb && request.method === "GET" && target.searchParams.get("format") === "csvdata") {
    const flow = decodeURIComponent(ecb[1]!);
    const key = decodeURIComponent(ecb[2]!);
    const seriesKey = (document: CsvDocument, row: { fields: string[] }) =>
      row.fields[document.headerFields.indexOf("KEY")] ?? "";
    const ofFlow = (document: CsvDocument, row: { fields: string[] }) =>
      seriesKey(document, row).startsWith(`${flow}.`);
    const document =
      samples.ecb.find((candidate) => candidate.rows.some((row) => ofFlow(candidate, row))) ?? samples.ecb[0];
    if (!document) return null;
    return {
      contentType: "text/csv; charset=utf-8",
      body: csvAnswer(
        document,
        (row) =>
          ofFlow(document, row) &&
          keyMatches(
            key,
            seriesKey(document, row)
              .slice(flow.length + 1)
              .split("."),
          ),
      ),
    };
  }
  return null;
}
