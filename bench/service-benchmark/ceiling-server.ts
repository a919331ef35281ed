/**
 * Child process: the ceiling. A bare node:http server that answers each registered path (with its query) with the
 * status, headers and body bytes the service sent for it, and does nothing else. No real service can answer the same
 * bytes faster on this machine, so service / ceiling says how much of the possible rate the service reaches.
 * Started by ceiling.ts; not meant to be run by hand.
 */
import { createServer, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { CeilingRequest } from "./ceiling.ts";
import { serveWorkerRequests } from "./worker-process.ts";

interface Replay {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
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

async function handle(request: CeilingRequest): Promise<unknown> {
  if (request.kind === "address") return { url: `http://127.0.0.1:${port}` };
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of request.headers) {
    const key = name.toLowerCase();
    if (FRAMING_HEADERS.has(key)) continue;
    const previous = headers[key];
    // A header sent twice (e.g. Vary) is replayed twice, not merged.
    headers[key] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [String(previous)]), value];
  }
  replays.set(request.pathAndQuery, {
    status: request.status,
    headers,
    body: Buffer.from(request.bodyBase64, "base64"),
  });
  return { registered: request.pathAndQuery };
}

serveWorkerRequests(handle);
