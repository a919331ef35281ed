import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A real HTTP server on 127.0.0.1 that stands in for all five publisher hosts of economics ingestion
 * (www.bls.gov, api.bls.gov, ec.europa.eu, www.ecb.europa.eu, data-api.ecb.europa.eu). It answers the
 * publishers' own paths (see cli/ingest/sources.ts) with the recorded documents of data/samples:
 *
 * - calendars and announcement feeds: the newest sample of the source (file-name order is fetch order); a feed
 *   with no sample gets an empty-but-valid feed;
 * - BLS API (POST): a REQUEST_SUCCEEDED envelope holding, for each requested `seriesid`, that series as the last
 *   sample holding it has it (a requested series with no sample comes back with no data, as BLS does);
 * - Eurostat SDMX-CSV and ECB csvdata: the sample rows of the dataset/flow that match the key (SDMX key syntax:
 *   `.`-separated positions, `+` for alternatives, empty for any); no matching rows gives the header alone.
 *   `startPeriod` is not applied (the samples are old).
 *
 * Every request is recorded. Per path (an exact pathname, or a prefix ending in `*`) it can be switched to
 * fail with a status, to hang (never answer, for kill and time-out tests) or to serve a replacement body; where
 * several switches match a path, the one set last wins.
 * Point the five `SERVICE_*_URL` variables (`env`) or `hosts` of a fetch-mode run at it.
 */

export const PUBLISHER_PATHS = {
  blsSchedule: "/schedule/news_release/bls.ics",
  eurostatCalendar: "/eurostat/o/calendars/eventsJson",
  ecbMeetings: "/press/calendars/mgcgc/html/index.en.html",
  ecbStatistics: "/press/calendars/statscal/html/index.en.html",
  blsApi: "/publicAPI/v2/timeseries/data/",
  eurostatData: "/eurostat/api/dissemination/sdmx/2.1/data/*",
  ecbData: "/service/data/*",
  blsNewsFeed: "/feed/bls_latest.rss",
  ecbPressFeed: "/rss/press.html",
} as const;

/** Which source each publisher path belongs to (as `service ingest --source` names them). */
export const SOURCE_OF_PATH: Record<keyof typeof PUBLISHER_PATHS, string> = {
  blsSchedule: "labour-stats-release-schedule",
  eurostatCalendar: "eu-stats-release-calendar",
  ecbMeetings: "central-bank-meetings-calendar",
  ecbStatistics: "central-bank-statistics-calendar",
  blsApi: "bls-api",
  eurostatData: "eurostat-sdmx",
  ecbData: "ecb-data",
  blsNewsFeed: "bls-news-feed",
  ecbPressFeed: "ecb-press-feed",
};

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
    path: PUBLISHER_PATHS.blsNewsFeed, source: "bls-news-feed",
    empty: `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>BLS Latest Numbers</title></feed>\n`,
  },
  {
    path: PUBLISHER_PATHS.ecbPressFeed, source: "ecb-press-feed",
    empty: `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>ECB press releases</title></channel></rss>\n`,
  },
];

export const DEFAULT_SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));

export interface StandinRequest {
  method: string;
  path: string;
  query: string;
  body: string;
}

export type Behaviour =
  | { kind: "fail"; status: number }
  | { kind: "hang" }
  | { kind: "body"; body: Buffer; contentType: string; status: number };

export interface PublisherStandin {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The five publisher-host variables, all pointing here. */
  env: Record<"SERVICE_BLS_URL" | "SERVICE_BLS_API_URL" | "SERVICE_EUROSTAT_URL" | "SERVICE_ECB_URL" | "SERVICE_ECB_DATA_URL", string>;
  /** The same as `UpstreamHosts` for an in-process fetch-mode run. */
  hosts: { "bls-www": string; "bls-api": string; eurostat: string; "ecb-www": string; "ecb-data": string };
  /** Every request received, in order. */
  requests: StandinRequest[];
  /** Requests whose path matches (all when no pattern). */
  count(pattern?: string): number;
  fail(pattern: string, status?: number): void;
  hang(pattern: string): void;
  replace(pattern: string, body: string | Buffer, contentType?: string): void;
  /** Back to the recorded documents, for one pattern or all. Requests already hanging stay unanswered. */
  reset(pattern?: string): void;
  /** Resolves with the first request (already received or still to come) whose path matches. */
  waitForRequest(pattern: string, timeoutMs?: number): Promise<StandinRequest>;
  close(): Promise<void>;
}

export function pathMatches(pattern: string, path: string): boolean {
  return pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

export async function startPublisherStandin(options: { samplesDir?: string } = {}): Promise<PublisherStandin> {
  const samples = loadSamples(options.samplesDir ?? DEFAULT_SAMPLES_DIR);
  const behaviours = new Map<string, Behaviour>();
  const requests: StandinRequest[] = [];
  const waiters: { pattern: string; resolve: (request: StandinRequest) => void }[] = [];

  const behaviourFor = (path: string): Behaviour | null => {
    let found: Behaviour | null = null;
    for (const [pattern, behaviour] of behaviours) if (pathMatches(pattern, path)) found = behaviour;
    return found;
  };

  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = new URL(request.url ?? "/", "http://standin");
    const received: StandinRequest = { method: request.method ?? "GET", path: target.pathname, query: target.search, body: Buffer.concat(chunks).toString("utf8") };
    requests.push(received);
    for (const waiter of [...waiters]) {
      if (pathMatches(waiter.pattern, received.path)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(received);
      }
    }
    const behaviour = behaviourFor(received.path);
    if (behaviour?.kind === "hang") return;
    if (behaviour?.kind === "fail") return send(response, behaviour.status, "text/plain", Buffer.from(`stand-in failure ${behaviour.status}\n`));
    if (behaviour?.kind === "body") return send(response, behaviour.status, behaviour.contentType, behaviour.body);
    const answer = recordedAnswer(samples, received, target);
    if (!answer) return send(response, 404, "text/plain", Buffer.from("not found\n"));
    send(response, 200, answer.contentType, answer.body);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    env: { SERVICE_BLS_URL: url, SERVICE_BLS_API_URL: url, SERVICE_EUROSTAT_URL: url, SERVICE_ECB_URL: url, SERVICE_ECB_DATA_URL: url },
    hosts: { "bls-www": url, "bls-api": url, eurostat: url, "ecb-www": url, "ecb-data": url },
    requests,
    count: (pattern) => requests.filter((request) => pattern === undefined || pathMatches(pattern, request.path)).length,
    fail: (pattern, status = 500) => void behaviours.set(pattern, { kind: "fail", status }),
    hang: (pattern) => void behaviours.set(pattern, { kind: "hang" }),
    replace: (pattern, body, contentType = contentTypeOf(pattern)) =>
      void behaviours.set(pattern, { kind: "body", body: Buffer.isBuffer(body) ? body : Buffer.from(body), contentType, status: 200 }),
    reset: (pattern) => {
      if (pattern === undefined) behaviours.clear();
      else behaviours.delete(pattern);
    },
    waitForRequest: (pattern, timeoutMs = 15_000) => {
      const seen = requests.find((request) => pathMatches(pattern, request.path));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`stand-in: no request for ${pattern} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ pattern, resolve: (request) => { clearTimeout(timer); resolve(request); } });
      });
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function send(response: ServerResponse, status: number, contentType: string, body: Buffer): void {
  response.writeHead(status, { "content-type": contentType, "content-length": String(body.length) });
  response.end(body);
}

function contentTypeOf(path: string): string {
  if (path.endsWith(".ics")) return "text/calendar; charset=utf-8";
  if (path === PUBLISHER_PATHS.blsNewsFeed) return "application/atom+xml; charset=utf-8";
  if (path === PUBLISHER_PATHS.ecbPressFeed) return "application/rss+xml; charset=utf-8";
  if (path.endsWith(".html")) return "text/html; charset=utf-8";
  if (path.startsWith("/eurostat/api/") || path.startsWith("/service/data/")) return "text/csv; charset=utf-8";
  return "application/json";
}

// ---- the recorded documents ------------------------------------------------------------------------------

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
  return readdirSync(folder).filter((name) => !name.startsWith(".") && extname(name) !== ".md").sort().map((name) => join(folder, name));
}

function loadSamples(dir: string): Samples {
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
  const ecb = filesOf(dir, "ecb-data").map((file) => readCsv(readFileSync(file, "utf8")));
  return { single, blsSeries, eurostat, ecb };
}

/** Good enough for the samples: fields may be quoted (with commas inside), records are single lines. */
function readCsv(text: string): CsvDocument {
  const lineEnd = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(lineEnd).filter((line) => line !== "");
  const [header = "", ...rows] = lines;
  return { lineEnd, header, headerFields: splitCsvLine(header), rows: rows.map((row) => ({ text: row, fields: splitCsvLine(row) })) };
}

function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === "\"" && line[i + 1] === "\"") { field += "\""; i++; }
      else if (char === "\"") quoted = false;
      else field += char;
    } else if (char === "\"") quoted = true;
    else if (char === ",") { fields.push(field); field = ""; }
    else field += char;
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
  return Buffer.from([document.header, ...document.rows.filter(keep).map((row) => row.text), ""].join(document.lineEnd));
}

function recordedAnswer(samples: Samples, request: StandinRequest, target: URL): { contentType: string; body: Buffer } | null {
  const path = request.path;
  const single = samples.single.get(path);
  if (single && request.method === "GET") return { contentType: contentTypeOf(path), body: single };

  if (path === PUBLISHER_PATHS.blsApi && request.method === "POST") {
    let ids: string[] = [];
    try {
      const body = JSON.parse(request.body) as { seriesid?: unknown };
      ids = Array.isArray(body.seriesid) ? body.seriesid.filter((id): id is string => typeof id === "string") : [];
    } catch {
      return { contentType: "application/json", body: Buffer.from(JSON.stringify({ status: "REQUEST_NOT_PROCESSED", responseTime: 1, message: ["Invalid JSON"], Results: {} })) };
    }
    const missing = ids.filter((id) => !samples.blsSeries.has(id));
    const series = ids.map((id) => samples.blsSeries.get(id) ?? { seriesID: id, data: [] });
    const message = missing.map((id) => `No Data Available for Series ${id}`);
    return { contentType: "application/json", body: Buffer.from(JSON.stringify({ status: "REQUEST_SUCCEEDED", responseTime: 1, message, Results: { series } })) };
  }

  const eurostat = /^\/eurostat\/api\/dissemination\/sdmx\/2\.1\/data\/([^/]+)\/([^/]*)$/.exec(path);
  if (eurostat && request.method === "GET") {
    const document = samples.eurostat.get(decodeURIComponent(eurostat[1]!).toLowerCase());
    const key = decodeURIComponent(eurostat[2]!);
    if (!document) return { contentType: "text/csv; charset=utf-8", body: Buffer.from("DATAFLOW,LAST UPDATE,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\n") };
    const first = document.headerFields.indexOf("LAST UPDATE") + 1;
    const last = document.headerFields.indexOf("TIME_PERIOD");
    return { contentType: "text/csv; charset=utf-8", body: csvAnswer(document, (row) => keyMatches(key, row.fields.slice(first, last))) };
  }

  const ecb = /^\/service\/data\/([^/]+)\/([^/]*)$/.exec(path);
  if (ecb && request.method === "GET" && target.searchParams.get("format") === "csvdata") {
    const flow = decodeURIComponent(ecb[1]!);
    const key = decodeURIComponent(ecb[2]!);
    const seriesKey = (document: CsvDocument, row: { fields: string[] }) => row.fields[document.headerFields.indexOf("KEY")] ?? "";
    const ofFlow = (document: CsvDocument, row: { fields: string[] }) => seriesKey(document, row).startsWith(`${flow}.`);
    const document = samples.ecb.find((candidate) => candidate.rows.some((row) => ofFlow(candidate, row))) ?? samples.ecb[0];
    if (!document) return null;
    return {
      contentType: "text/csv; charset=utf-8",
      body: csvAnswer(document, (row) => ofFlow(document, row) && keyMatches(key, seriesKey(document, row).slice(flow.length + 1).split("."))),
    };
  }
  return null;
}
