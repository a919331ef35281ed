import type { IngestionLauncher } from "../schemas/ingestion-runs.ts";
import { ALL_ROUTES } from "../schemas/routes/all-routes.ts";
import type { Clock, ServiceConfig } from "./config.ts";
import type { RouteHandler, RouteResult } from "./http/route-handler.ts";
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

/** Every handler by route name, knowing nothing of HTTP: the server binds them to paths; `service query` calls them. */
export function createRouteHandlers(dependencies: HandlerDependencies): Record<string, RouteHandler> {
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
  for (const spec of ALL_ROUTES) {
    const handler = handlers[spec.name];
    if (handler && spec.reads) handlers[spec.name] = whileDataStays(handler, spec.reads === "index-and-registry");
  }
  return handlers;

  /**
   * The handler's answers are still current while the published data it reads is the same objects as when it was
   * called (a reloaded index or registry is a new object; null, none is published), and its own `stillCurrent` says so.
   */
  function whileDataStays(handler: RouteHandler, readsIndex: boolean): RouteHandler {
    return (input) => {
      const index = readsIndex ? storage.current() : null;
      const built = registry();
      const dataStays = () => (!readsIndex || storage.current() === index) && registry() === built;
      const withCheck = (result: RouteResult): RouteResult => {
        const own = result.stillCurrent;
        return { ...result, stillCurrent: own ? () => dataStays() && own() : dataStays };
      };
      const result = handler(input);
      return result instanceof Promise ? result.then(withCheck) : withCheck(result);
    };
  }
}
