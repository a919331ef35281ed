import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServiceMetrics } from "./metrics.ts";

/**
 * The metrics on a listener of their own (SERVICE_METRICS_PORT): `GET /metrics` with no key, for a Prometheus that
 * reaches no other route. Plain node:http: it shares nothing with the API's pipeline.
 */
export async function startMetricsServer(metrics: ServiceMetrics, options: { port: number; hostname: string }) {
  const server = createServer((request, response) => void answerMetricsRequest(metrics, request, response));
  server.listen(options.port, options.hostname);
  await once(server, "listening");
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(":") ? `[${address}]` : address}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answerMetricsRequest(metrics: ServiceMetrics, request: IncomingMessage, response: ServerResponse) {
  const send = (status: number, text: string, headers: Record<string, string> = {}) =>
    void response
      .writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers })
      .end(request.method === "HEAD" ? undefined : text);
  if ((request.url ?? "").split("?")[0] !== "/metrics") return send(404, "Not found: metrics are at /metrics\n");
  if (request.method !== "GET" && request.method !== "HEAD")
    return send(405, "Method not allowed\n", { allow: "GET, HEAD" });
  try {
    send(200, await metrics.scrape(), { "content-type": metrics.registry.contentType });
  } catch {
    send(500, "The metrics could not be collected\n");
  }
}
