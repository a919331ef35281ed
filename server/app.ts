import { H3 } from "h3";
import { ALL_ROUTES } from "../schemas/routes/all-routes.ts";
import { systemClock, type Clock, type ServiceConfig } from "./config.ts";
import { answerFrameworkError, handlePath, handleUnmatched, type BoundRoute, type PipelineContext } from "./http/pipeline.ts";
import { createRateLimiter } from "./http/rate-limit.ts";
import type { RouteHandler } from "./http/route-handler.ts";
import { createKeyLookup } from "./keys/key-file.ts";
import { createRegistrySource } from "./registry/registry-file.ts";
import { adminHandlers, type IngestionLauncher } from "./resources/admin.ts";
import { economicsHandlers } from "./resources/economics.ts";
import { publicEconomicsHandlers } from "./resources/public-economics.ts";
import { registryHandlers } from "./resources/registry.ts";
import { serviceHandlers } from "./resources/service.ts";
import { weatherHandlers } from "./resources/weather.ts";
import type { WeatherCache } from "./weather/cache.ts";
import type { WeatherPayload } from "./weather/model.ts";
import { createWeatherService } from "./weather/weather-service.ts";
import { createIndexStorage, type IndexStorage } from "./storage/index-storage.ts";

export interface AppDependencies {
  config: ServiceConfig;
  clock?: Clock;
  storage?: IndexStorage;
  /** The live weather source; built from `config.weather` when absent, none when weather is disabled. */
  weather?: WeatherCache<WeatherPayload> | null;
  /** Starts an ingestion run for the operator trigger route; absent, that route answers CONFIGURATION_ERROR. */
  launchIngestion?: IngestionLauncher;
  log?: (line: string) => void;
}

/** Builds the h3 app from its dependencies; nothing here reads the process environment. */
export function createApp(dependencies: AppDependencies): H3 {
  const { config } = dependencies;
  const clock = dependencies.clock ?? systemClock;
  const storage = dependencies.storage ?? createIndexStorage(config.dataDir, config.storageEnabled);
  const weather = dependencies.weather !== undefined
    ? dependencies.weather
    : config.weather.enabled ? createWeatherService(config.weather, () => clock.now()) : null;
  const context: PipelineContext = {
    environment: config.environment,
    corsOrigins: config.corsOrigins,
    clock,
    keyLookup: createKeyLookup(config.keysFile),
    rateLimiter: createRateLimiter(config.rateLimit),
    storageBound: storage.bound,
    log: dependencies.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
  const registry = createRegistrySource(config.dataDir);
  const handlers: Record<string, RouteHandler> = {
    ...registryHandlers(registry),
    ...serviceHandlers(config, storage),
    ...economicsHandlers(storage, registry),
    ...publicEconomicsHandlers(storage, registry),
    ...adminHandlers(config, dependencies.launchIngestion ?? null),
    ...weatherHandlers(weather),
  };

  const app = new H3({
    silent: true,
    onError: (error, event) => answerFrameworkError(event, error.status, context),
  });
  for (const [path, routes] of routesByPath(handlers)) {
    app.all(toRouterPath(path), (event) => handlePath(event, routes, context));
  }
  app.all("/**", (event) => handleUnmatched(event, context));
  return app;
}

/** Routes whose handler exists on this build, grouped by path so one path answers 405 for its other methods. */
function routesByPath(handlers: Record<string, RouteHandler>): Map<string, BoundRoute[]> {
  const byPath = new Map<string, BoundRoute[]>();
  for (const spec of ALL_ROUTES) {
    const handler = handlers[spec.name];
    if (handler) byPath.set(spec.path, [...(byPath.get(spec.path) ?? []), { spec, handler }]);
  }
  return byPath;
}

function toRouterPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ":$1");
}
