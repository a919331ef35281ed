import { H3 } from "h3";
import type { IncomingMessage } from "node:http";
import { ALL_ROUTES } from "../schemas/routes/all-routes.ts";
import {
  answerFrameworkError,
  answerRefusedRequest,
  answerUnexpectedFailure,
  handlePath,
  handleUnmatched,
  type BoundRoute,
  type PipelineContext,
} from "./http/pipeline.ts";
import { createCompressor } from "./http/compression.ts";
import { createAnswersByKey, createKeptAnswers } from "./http/kept-answers.ts";
import { createRateLimiter } from "./http/rate-limit.ts";
import { answerRecognised, createRecognisedUrls } from "./http/recognised-urls.ts";
import type { HttpAnswer } from "./http/request-answer.ts";
import type { RouteHandler } from "./http/route-handler.ts";
import { createKeyLookup } from "./keys/key-file.ts";
import { createLogger } from "./observability/logger.ts";
import { createMetrics } from "./observability/metrics.ts";
import { createRouteHandlers, type HandlerDependencies } from "./route-handlers.ts";

export type AppDependencies = HandlerDependencies;

/** Builds the h3 app from its dependencies; nothing here reads the process environment. */
export function createApp(dependencies: AppDependencies): H3 {
  const { config } = dependencies;
  // The structured log; one at `info` on stderr when the caller gives none.
  const logger = dependencies.logger ?? createLogger("info");
  // The app's own metrics, unless the caller keeps them to serve them elsewhere too (SERVICE_METRICS_PORT).
  const metrics = dependencies.metrics ?? createMetrics();
  const { handlers, generations, storage, clock } = createRouteHandlers({ ...dependencies, logger, metrics });
  metrics.observePublishedData({ storage, dataDir: config.dataDir, now: () => clock.now() });
  const context: PipelineContext = {
    environment: config.environment,
    corsOrigins: config.corsOrigins,
    clock,
    keyLookup: createKeyLookup(config.keysFile),
    rateLimiter: createRateLimiter(config.rateLimit),
    storageBound: storage.bound,
    trustedProxies: new Set(config.trustedProxies ?? []),
    keptAnswers: createKeptAnswers(() => clock.now(), config.keptAnswerBytes),
    answersByKey: createAnswersByKey(),
    recognisedUrls: createRecognisedUrls(),
    compressor: createCompressor(config.compressedAnswerBytes),
    logger,
    metrics,
  };
  metrics.observeCacheBytes("kept_answers", () => context.keptAnswers.bytes);
  metrics.observeCacheBytes("answers_by_key", () => context.answersByKey.bytes);
  metrics.observeCacheBytes("recognised_urls", () => context.recognisedUrls.bytes);
  metrics.observeCacheBytes("compressed_answers", () => context.compressor.bytes);
  const app = new H3({
    silent: true,
    onError: (error, event) => answerFrameworkError(event, error, context),
  });
  for (const [path, routes] of routesByPath(handlers, generations)) {
    app.all(toRouterPath(path), (event) => handlePath(event, routes, context));
  }
  app.all("/**", (event) => handleUnmatched(event, context));
  transportHooks.set(app, {
    answerRefused: (clientAddress) => answerRefusedRequest(clientAddress, context),
    answerRecognised: (request) => answerRecognised(request, context),
    answerUnexpected: (error) => answerUnexpectedFailure(error, context),
  });
  return app;
}

export type RefusedRequestAnswer = (clientAddress: string | undefined) => {
  status: number;
  headers: Record<string, string>;
  body: string;
};

/** What the server (listen.ts) answers around h3, with the app's own pipeline. */
export interface TransportHooks {
  /** Requests Node refuses before they reach h3: the server writes this on the socket. */
  answerRefused: RefusedRequestAnswer;
  /** A request for a URL h3 routed before, answered without srvx and h3 (recognised-urls.ts); undefined for h3 to route it. */
  answerRecognised: (request: IncomingMessage) => HttpAnswer | Promise<HttpAnswer> | undefined;
  /** The shaped INTERNAL answer (logged and counted) for an edge answer Node refused to write. */
  answerUnexpected: (error: unknown) => HttpAnswer;
}

const transportHooks = new WeakMap<H3, TransportHooks>();

export function transportHooksOf(app: H3): TransportHooks | undefined {
  return transportHooks.get(app);
}

/** Routes whose handler exists on this build, grouped by path so one path answers 405 for its other methods. */
function routesByPath(
  handlers: Record<string, RouteHandler>,
  generations: Record<string, () => readonly unknown[]>,
): Map<string, BoundRoute[]> {
  const byPath = new Map<string, BoundRoute[]>();
  for (const spec of ALL_ROUTES) {
    const handler = handlers[spec.name];
    if (handler)
      byPath.set(spec.path, [...(byPath.get(spec.path) ?? []), { spec, handler, generation: generations[spec.name] }]);
  }
  return byPath;
}

function toRouterPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ":$1");
}
