import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { NOT_REAL_WEATHER } from "../../server/weather/provenance.ts";
import { packagePath } from "../package-paths.ts";
import { createFaultPicker, type MetFaultKind, type MetStandinFlakiness, serveFault } from "./met-standin-faults.ts";

/**
 * A local stand-in for MET Norway's Locationforecast 2.0 `complete` endpoint, for offline demos and benchmarks: point
 * SERVICE_WEATHER_BASE_URL at `url`. Every point gets the SAME real recorded forecast (data/samples/met/, see its
 * SOURCES.md) moved to the asked point and shifted onto the current hour, so its numbers are NOT real weather for any
 * place or time. The notice below travels in every answer (a header and `properties.meta.notice`) so nobody mistakes it,
 * and the service, reading it in the document, labels its own answers (server/weather/provenance.ts).
 */
export const MET_STANDIN_NOTICE = `${NOT_REAL_WEATHER}: one recorded MET Norway forecast (Berlin, 2022-08-02) moved to the asked point and shifted to the current hour by a local stand-in`;

const RECORDING = packagePath("data/samples/met/complete-berlin-2022-08-02.json");
const FORECAST_PATH = "/weatherapi/locationforecast/2.0/complete";
const HOUR_MS = 3_600_000;
/** MET's Expires usually lies about half an hour after Date (31 min 52 s in the recorded London answer). */
const EXPIRES_AFTER_MS = 30 * 60_000;
/** MET refuses more than 4 decimals (403) rather than rounding. */
const COORDINATE = /^-?\d{1,3}(\.\d{1,4})?$/;

export interface MetStandinOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Defaults to the wall clock; the document follows it hour by hour. */
  now?: () => number;
  /** Delay before each answer, like the round trip to the real MET (default none). */
  latencyMs?: number;
  /** Expires minus Date (default 30 min, like MET); a soak run shortens it so cached points expire while it runs. */
  expiresAfterMs?: number;
  /** A share of answers fail (500, 429, hangs, cut bodies; see met-standin-faults.ts). Absent: every answer is normal. */
  flaky?: MetStandinFlakiness;
}

export interface MetStandin {
  url: string;
  /** Requests received so far, refused ones included: what a real MET would have counted against us. */
  requests(): number;
  /** Faults answered so far by kind (all zero unless `flaky` was given). */
  faultsServed(): Record<MetFaultKind, number>;
  close(): Promise<void>;
}

interface RecordedDocument {
  geometry: { coordinates: number[] };
  properties: {
    meta: { updated_at: string } & Record<string, unknown>;
    timeseries: Array<{ time: string } & Record<string, unknown>>;
  };
}

/** The recording shifted onto one hour; only the geometry differs between points, so the rest is serialised once. */
interface HourDocument {
  hourStart: number;
  lastModified: number;
  propertiesJson: string;
  recordedAltitude: number | undefined;
}

export async function startMetStandin(options: MetStandinOptions): Promise<MetStandin> {
  const now = options.now ?? Date.now;
  const recording = JSON.parse(readFileSync(RECORDING, "utf8")) as RecordedDocument;
  let hourDocument = shiftOntoHour(recording, startOfHour(now()));
  let received = 0;
  const faults = createFaultPicker(options.flaky ?? { failureShare: 0, hangMs: 0 });

  function currentDocument(): HourDocument {
    const hourStart = startOfHour(now());
    // A new hour reads like a new model run: new times and a new Last-Modified, so conditional requests get a 200.
    if (hourStart !== hourDocument.hourStart) hourDocument = shiftOntoHour(recording, hourStart);
    return hourDocument;
  }

  function answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? "/", "http://standin");
    const refusal = refuseLikeMet(url, request);
    if (refusal)
      return void response
        .writeHead(refusal.status, { "content-type": "text/plain" })
        .end(`${refusal.text}\n${MET_STANDIN_NOTICE}\n`);
    // Only requests MET would have answered can fail at random, conditional ones included (a revalidation can fail too).
    const fault = options.flaky ? faults.pick() : null;
    if (fault)
      return serveFault(
        fault,
        response,
        options.flaky!,
        () => Buffer.from(documentAt(currentDocument(), url.searchParams)),
        MET_STANDIN_NOTICE,
      );

    const document = currentDocument();
    const at = now();
    const headers: Record<string, string> = {
      date: new Date(at).toUTCString(),
      expires: new Date(at + (options.expiresAfterMs ?? EXPIRES_AFTER_MS)).toUTCString(),
      "last-modified": new Date(document.lastModified).toUTCString(),
      vary: "Accept, Accept-Encoding",
      "x-standin-notice": MET_STANDIN_NOTICE,
    };
    const since = Date.parse(String(request.headers["if-modified-since"]));
    if (since >= document.lastModified) return void response.writeHead(304, headers).end();

    const json = Buffer.from(documentAt(document, url.searchParams));
    const gzip = /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
    const body = gzip ? gzipSync(json) : json;
    response.writeHead(200, {
      ...headers,
      "content-type": "application/json",
      "content-length": String(body.length),
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    });
    response.end(body);
  }

  const latencyMs = options.latencyMs ?? 0;
  const server = createServer((request, response) => {
    received += 1;
    if (latencyMs > 0) setTimeout(answer, latencyMs, request, response);
    else answer(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}`,
    requests: () => received,
    faultsServed: () => faults.served(),
    close() {
      server.closeAllConnections(); // keep-alive sockets would otherwise hold close() open
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** Every time in the recording moves by the same whole number of hours, so the first step lands on `hourStart`. */
function shiftOntoHour(recording: RecordedDocument, hourStart: number): HourDocument {
  const firstStep = recording.properties.timeseries[0];
  if (!firstStep) throw new Error(`${RECORDING} holds no time steps`);
  const shiftMs = hourStart - Date.parse(firstStep.time);
  const shifted = (time: string) => new Date(Date.parse(time) + shiftMs).toISOString().replace(".000Z", "Z");
  const updatedAt = shifted(recording.properties.meta.updated_at);
  const properties = {
    ...recording.properties,
    meta: { ...recording.properties.meta, updated_at: updatedAt, notice: MET_STANDIN_NOTICE },
    timeseries: recording.properties.timeseries.map((step) => ({ ...step, time: shifted(step.time) })),
  };
  return {
    hourStart,
    lastModified: Date.parse(updatedAt),
    propertiesJson: JSON.stringify(properties),
    recordedAltitude: recording.geometry.coordinates[2],
  };
}

/** The asked point (MET echoes it rounded to 4 decimals); without `altitude` the recording's own stays, as MET infers one. */
function documentAt(document: HourDocument, query: URLSearchParams): string {
  const altitude = query.has("altitude") ? Math.round(Number(query.get("altitude"))) : document.recordedAltitude;
  const coordinates = [
    Number(query.get("lon")),
    Number(query.get("lat")),
    ...(altitude === undefined ? [] : [altitude]),
  ];
  return `{"type":"Feature","geometry":${JSON.stringify({ type: "Point", coordinates })},"properties":${document.propertiesJson}}`;
}

/** What MET itself refuses (its documented status codes), so a client bug shows here as it would against MET. */
function refuseLikeMet(url: URL, request: IncomingMessage): { status: number; text: string } | null {
  if (url.pathname !== FORECAST_PATH) return { status: 404, text: "Not found" };
  if (request.method !== "GET" && request.method !== "HEAD") return { status: 405, text: "Method not allowed" };
  if (!request.headers["user-agent"]?.trim()) return { status: 403, text: "Missing User-Agent" };
  const lat = url.searchParams.get("lat");
  const lon = url.searchParams.get("lon");
  if (lat === null || lon === null) return { status: 400, text: "lat and lon are required" };
  if (!COORDINATE.test(lat) || !COORDINATE.test(lon))
    return { status: 403, text: "lat and lon take at most 4 decimals" };
  if (Math.abs(Number(lat)) > 90 || Math.abs(Number(lon)) > 180)
    return { status: 400, text: "lat or lon out of range" };
  const altitude = url.searchParams.get("altitude");
  if (altitude !== null && !Number.isFinite(Number(altitude)))
    return { status: 400, text: "altitude must be a number" };
  return null;
}

function startOfHour(time: number): number {
  return Math.floor(time / HOUR_MS) * HOUR_MS;
}
