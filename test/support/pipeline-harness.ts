import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeKeyFile } from "../../cli/keys/key-file-writer.ts";
import { newKey } from "../../cli/keys/new-key.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import type { Scope } from "../../schemas/vocabularies.ts";
import { createAnswerCache } from "../../server/http/answer-cache.ts";
import { createCompressor } from "../../server/http/compression.ts";
import { createH3App } from "../../server/http/h3-handler.ts";
import { type BoundRoute, createPipeline, type PipelineContext } from "../../server/http/pipeline.ts";
import { createRateLimiter } from "../../server/http/rate-limit.ts";
import { createKeyLookup, readKeyFile } from "../../server/keys/key-file.ts";
import { startServer } from "../../server/listen.ts";
import { createLogger } from "../../server/observability/logger.ts";
import { createMetrics } from "../../server/observability/metrics.ts";

export function testSpec(overrides: Partial<RouteSpec> & Pick<RouteSpec, "name" | "path">): RouteSpec {
  return {
    method: "GET",
    tag: "service",
    summary: "test route",
    access: "PUBLIC",
    scope: null,
    requiresDurableStorage: false,
    publicCacheSeconds: null,
    errorCodes: [],
    ignoredParameters: [],
    parameters: [],
    dataSchema: {},
    metaFields: [],
    ...overrides,
  };
}

/** The generic pipeline on a real port with routes of the test's own making. */
export async function startPipeline(
  routes: BoundRoute[],
  options: { durableStorage?: boolean; publicPerWindow?: number } = {},
) {
  const keysFile = join(mkdtempSync(join(tmpdir(), "pipeline-")), "keys.json");
  let now = Date.parse("2026-11-21T12:00:00Z");
  const context: PipelineContext = {
    environment: "test",
    corsOrigins: ["https://app.example.com"],
    clock: { now: () => now },
    keyLookup: createKeyLookup(keysFile),
    rateLimiter: createRateLimiter({
      windowSeconds: 60,
      publicPerWindow: options.publicPerWindow ?? 1000,
      credentialedPerWindow: 1000,
    }),
    durableStorage: options.durableStorage ?? true,
    trustedProxies: new Set(),
    answers: createAnswerCache(),
    compressor: createCompressor(),
    logger: createLogger("silent"),
    metrics: createMetrics(),
  };
  const pipeline = createPipeline(routes, context);
  const server = await startServer({ pipeline, h3: createH3App(pipeline) }, { port: 0, hostname: "127.0.0.1" });
  return {
    url: server.url!.replace(/\/$/, ""),
    advance: (ms: number) => {
      now += ms;
    },
    answerCacheBytes: () => context.answers.bytes,
    key(scopes: Scope[]) {
      const { record, secret } = newKey({ name: "t", environment: "test", scopes, createdAt: "2026-11-21T00:00:00Z" });
      writeKeyFile(keysFile, { keys: [...readKeyFile(keysFile).keys, record] });
      return secret;
    },
    close: () => server.close(true),
  };
}
