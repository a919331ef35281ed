import type { IngestionLauncher } from "../schemas/ingestion-runs.ts";
import { ALL_ROUTES } from "../schemas/routes/all-routes.ts";
import type { Clock, ServiceConfig } from "./config.ts";
import type { RouteHandler } from "./http/route-handler.ts";
import type { Generation } from "./http/route-table.ts";
import type { Logger } from "./observability/logger.ts";
import type { ServiceMetrics } from "./observability/metrics.ts";
import { createPlaceSearch } from "./places/search-places.ts";
import { createRegistrySource } from "./registry/registry-file.ts";
import { adminHandlers, metricsHandlers } from "./resources/admin.ts";
import { docsPageHandlers } from "./resources/docs-page.ts";
import { economicsHandlers } from "./resources/economics.ts";
import { frontDoorHandlers } from "./resources/front-door.ts";
import { newsHandlers } from "./resources/news.ts";
import { placesHandlers } from "./resources/places.ts";
import { publicEconomicsHandlers } from "./resources/public-economics.ts";
import { registryHandlers } from "./resources/registry.ts";
import { serviceHandlers } from "./resources/service.ts";
import { statusHandlers } from "./resources/status.ts";
import { weatherHandlers } from "./resources/weather.ts";
import type { IndexStorage } from "./storage/index-storage.ts";
import type { WeatherCache } from "./weather/cache.ts";
import { createMetWeatherSource } from "./weather/met-weather-source.ts";
import type { StoredPayload } from "./weather/stored-payload.ts";

export interface HandlerDependencies {
  config: ServiceConfig;
  clock: Clock;
  storage: IndexStorage;
  /** The live weather source; built from `config.weather` when absent, none when weather is disabled. */
  weather?: WeatherCache<StoredPayload> | null;
  logger?: Logger;
  /** Starts an ingestion run for the operator trigger route; absent, that route answers CONFIGURATION_ERROR. */
  launchIngestion?: IngestionLauncher;
  /** The weather source reports to them and the operator's metrics route serves them; none for the CLI's queries. */
  metrics?: ServiceMetrics;
}

export interface RouteHandlers {
  handlers: Record<string, RouteHandler>;
  /** For routes whose answers depend only on the data they read (RouteSpec.reads): its identity (answer-cache.ts). */
  generations: Record<string, () => Generation>;
}

/** Every handler by route name, knowing nothing of HTTP: the server binds them to paths; `service query` calls them. */
export function createRouteHandlers(dependencies: HandlerDependencies): RouteHandlers {
  const { config, clock, storage } = dependencies;
  const weather =
    dependencies.weather !== undefined
      ? dependencies.weather
      : config.weather.enabled
        ? createMetWeatherSource(config.weather, () => clock.now(), {
            logger: dependencies.logger,
            metrics: dependencies.metrics,
          })
        : null;
  if (weather) dependencies.metrics?.observeCacheBytes("weather_payloads", () => weather.bytes);
  const registry = createRegistrySource(config.dataDir, dependencies.logger);
  const handlers: Record<string, RouteHandler> = {
    ...registryHandlers(registry),
    ...serviceHandlers(config, storage, registry),
    ...docsPageHandlers(),
    ...frontDoorHandlers(),
    ...economicsHandlers(storage, registry),
    ...publicEconomicsHandlers(storage, registry),
    ...adminHandlers(config, dependencies.launchIngestion ?? null),
    ...(dependencies.metrics ? metricsHandlers(dependencies.metrics) : {}),
    ...weatherHandlers(weather),
    ...placesHandlers(createPlaceSearch(config.dataDir)),
    ...newsHandlers(storage, registry),
    ...statusHandlers(storage, weather),
  };
  const generationOf = { registry: () => [registry()], "index-and-registry": () => [storage.current(), registry()] };
  const generations: Record<string, () => Generation> = {};
  for (const spec of ALL_ROUTES) if (spec.reads) generations[spec.name] = generationOf[spec.reads];
  return { handlers, generations };
}
