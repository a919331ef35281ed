/**
 * Child process: the ceilings. Two servers that answer each registered path (with its query) with the status, headers
 * and body bytes the service sent for it, and do nothing else: a bare node:http server (no real service can answer the
 * same bytes faster on this machine, so service / ceiling says how much of the possible rate the service reaches), and
 * an h3 app on h3's own server (srvx) answering the bytes from memory (the floor: the service's whole pipeline should
 * cost no more than h3 itself). Started by ceiling.ts; not meant to be run by hand.
 */
import { createServer, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { H3 } from "h3";
import { FastResponse } from "srvx";
import { serve } from "srvx/node";
import type { CeilingRequest } from "./ceiling.ts";
import { serveWorkerRequests } from "./worker-process.ts";

interface Replay {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The same headers as h3 is handed them (a repeated header as repeated pairs). */
  headerPairs: [string, string][];
  body: Buffer<ArrayBuffer>;
}

/** Node writes these itself from how it frames the answer; replaying the recorded ones would duplicate or contradict them. */
const FRAMING_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding"]);

const replays = new Map<string, Replay>();

const server = createServer((request, response) => {
  const replay = replays.get(request.url ?? "");
  if (!replay) return void response.writeHead(404).end();
  // The recorded Date header is replayed like the rest; Node would otherwise add a second one.
  response.sendDate = false;
  response.writeHead(replay.status, replay.headers).end(replay.body);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;

const app = new H3().all("/**", (event) => {
  const replay = replays.get(event.url.pathname + event.url.search);
  if (!replay) return new FastResponse(null, { status: 404 });
  return new FastResponse(replay.body, { status: replay.status, headers: replay.headerPairs });
});
const h3Server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
await h3Server.ready();

async function handle(request: CeilingRequest): Promise<unknown> {
  if (request.kind === "address") return { url: `http://127.0.0.1:${port}`, h3Url: h3Server.url!.replace(/\/$/, "") };
  const headers: OutgoingHttpHeaders = {};
  const headerPairs: [string, string][] = [];
  for (const [name, value] of request.headers) {
    const key = name.toLowerCase();
    // srvx states the length and the date itself, as for the service's own answers through h3.
    if (FRAMING_HEADERS.has(key)) continue;
    if (key !== "content-length" && key !== "date") headerPairs.push([key, value]);
    const previous = headers[key];
    // A header sent twice (e.g. Vary) is replayed twice, not merged.
    headers[key] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [String(previous)]), value];
  }
  replays.set(request.pathAndQuery, {
    status: request.status,
    headers,
    headerPairs,
    body: Buffer.from(request.bodyBase64, "base64"),
  });
  return { registered: request.pathAndQuery };
}

serveWorkerRequests(handle);
