import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import { buildOpenApiDocument } from "../../schemas/openapi.ts";
import type { ServiceConfig } from "../config.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import type { IndexStorage } from "../storage/index-storage.ts";

export function serviceHandlers(config: ServiceConfig, storage: IndexStorage): Record<string, RouteHandler> {
  return {
    "v1.capabilities": () => {
      const index = storage.current();
      const facts = index?.facts;
      return {
        data: {
          environment: config.environment,
          durableStorage: {
            bound: storage.bound,
            indexPresent: index !== null,
            ingestionCompleted: (facts?.lastIngestedAt ?? null) !== null,
            storageBackedRoutesAvailable: storage.ready(),
            lastIngestedAt: facts?.lastIngestedAt ?? null,
            lastSuccessfulIngestionAt: facts?.lastSuccessfulIngestionAt ?? null,
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
      data: buildOpenApiDocument({ routes: ALL_ROUTES, includeOperatorRoutes: false, durableStorage: storage.ready(), environment: config.environment }),
      bare: true,
    }),
  };
}
