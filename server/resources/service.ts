import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import { buildOpenApiDocument } from "../../schemas/openapi.ts";
import type { ServiceConfig } from "../config.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import type { IndexStorage } from "../storage/index-storage.ts";

export function serviceHandlers(config: ServiceConfig, storage: IndexStorage): Record<string, RouteHandler> {
  return {
    "v1.capabilities": () => {
      const index = storage.current();
      const lastSuccess = index?.facts.lastSuccessfulIngestionAt ?? null;
      return {
        data: {
          environment: config.environment,
          durableStorage: {
            bound: storage.bound,
            indexPresent: index !== null,
            ingestionCompleted: lastSuccess !== null,
            storageBackedRoutesAvailable: storage.ready(),
            lastSuccessfulIngestionAt: lastSuccess,
          },
          sources: config.upstreams.map((upstream) => ({
            id: upstream.id,
            domain: upstream.domain,
            enabled: upstream.enabled,
            usesPublisherHost: upstream.baseUrl === upstream.publisherBaseUrl,
          })),
        },
      };
    },

    "v1.openapi": () => ({
      data: buildOpenApiDocument({ routes: ALL_ROUTES, durableStorage: storage.ready(), environment: config.environment }),
      bare: true,
    }),
  };
}
