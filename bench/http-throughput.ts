/**
 * Throughput of the same app behind h3's own `serve` (srvx) and behind listhen's `listen(toNodeHandler(app))`.
 * Run: npm run bench:http   (the load generator shares the machine's cores with the server; compare, don't quote absolutes)
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { toNodeHandler } from "h3/node";
import { listen } from "listhen";
import { rebuildRegistry } from "../cli/registry/build-registry.ts";
import { createApp } from "../server/app.ts";
import type { ServiceConfig } from "../server/config.ts";
import { startServer } from "../server/listen.ts";

const PATH = "/api/v1/economics/series?limit=5";
const ROUNDS = 3;
const SECONDS = 5;

const dataDir = mkdtempSync(join(tmpdir(), "bench-"));
rebuildRegistry(dataDir);
const config: ServiceConfig = {
  environment: "bench",
  dataDir,
  keysFile: join(dataDir, "keys.json"),
  durableStorage: true,
  corsOrigins: [],
  rateLimit: { windowSeconds: 60, publicPerWindow: 1e9, credentialedPerWindow: 1e9 },
  upstreams: [],
  weather: {
    enabled: false,
    baseUrl: "http://127.0.0.1:9",
    userAgent: "bench",
    timeoutMs: 1000,
    maxBytes: 1000,
    maxEntries: 1,
  },
};

async function load(url: string): Promise<number> {
  await autocannon({ url: url + PATH, connections: 50, duration: 1 });
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = await autocannon({ url: url + PATH, connections: 50, duration: SECONDS });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`non-2xx ${result.non2xx}, errors ${result.errors}`);
    rates.push(result.requests.average);
  }
  return rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
}

const h3Server = await startServer(createApp({ config }), { port: 0, hostname: "127.0.0.1" });
const h3Rate = await load(h3Server.url!.replace(/\/$/, ""));
await h3Server.close(true);

const listener = await listen(toNodeHandler(createApp({ config }).h3), {
  port: 0,
  hostname: "127.0.0.1",
  showURL: false,
});
const listhenRate = await load(listener.url.replace(/\/$/, ""));
await listener.close();

console.log(`GET ${PATH}, 50 connections, median of ${ROUNDS} x ${SECONDS}s`);
console.log(`h3 serve (srvx):                 ${Math.round(h3Rate)} req/s`);
console.log(`listhen listen(toNodeHandler()):  ${Math.round(listhenRate)} req/s`);
console.log(`listhen relative to h3 serve:     ${((listhenRate / h3Rate - 1) * 100).toFixed(1)}%`);
