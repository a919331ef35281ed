import { ALL_ROUTES } from "../schemas/routes/all-routes.ts";
import { type Clock, systemClock } from "./config.ts";
import { createAnswerCache } from "./http/answer-cache.ts";
import { createCompressor } from "./http/compression.ts";
import { createH3App } from "./http/h3-handler.ts";
import { type BoundRoute, createPipeline } from "./http/pipeline.ts";
import { createRateLimiter } from "./http/rate-limit.ts";
import { createKeyLookup } from "./keys/key-file.ts";
import { createLogger } from "./observability/logger.ts";
import { createMetrics } from "./observability/metrics.ts";
import { createRouteHandlers, type HandlerDependencies } from "./route-handlers.ts";
import { createIndexStorage } from "./storage/index-storage.ts";

/**
 * The pipeline every transport answers through, and the h3 app around it, from the handlers' dependencies less the
 * index storage the app opens (the clock optional); nothing here reads the process environment.
 */
export function createApp(dependencies: Omit<HandlerDependencies, "clock" | "storage"> & { clock?: Clock }) {
  const { config } = dependencies;
  const clock = dependencies.clock ?? systemClock;
  const storage = createIndexStorage(config.dataDir, config.durableStorage);
  const logger = dependencies.logger ?? createLogger("info");
  // A caller may pass its own metrics to serve them elsewhere too (SERVICE_METRICS_PORT).
  const metrics = dependencies.metrics ?? createMetrics();
  const handlers = createRouteHandlers({ ...dependencies, clock, storage, logger, metrics });
  metrics.observePublishedData({ storage, dataDir: config.dataDir, now: () => clock.now() });
  const answers = createAnswerCache(config.answerCacheBytes);
  const compressor = createCompressor(config.compressedHeadBytes);
  metrics.observeCacheBytes("answers", () => answers.bytes);
  metrics.observeCacheBytes("compressed_answers", () => compressor.bytes);
  const routes: BoundRoute[] = ALL_ROUTES.flatMap((spec) => {
    const handler = handlers[spec.name];
    return handler ? [{ spec, handler }] : [];
  });
  const pipeline = createPipeline(routes, {
    environment: config.environment,
    corsOrigins: config.corsOrigins,
    clock,
    keyLookup: createKeyLookup(config.keysFile),
    rateLimiter: createRateLimiter(config.rateLimit),
    durableStorage: storage.durableStorage,
    trustedProxies: new Set(config.trustedProxies ?? []),
    answers,
    compressor,
    logger,
    metrics,
  });
  return { pipeline, h3: createH3App(pipeline) };
}
