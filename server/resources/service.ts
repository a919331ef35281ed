import { buildOpenApiDocument } from "../../schemas/openapi.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import type { ServiceConfig } from "../config.ts";
import { ApiError } from "../http/api-error.ts";
import { NO_ATTRIBUTION } from "../http/attribution-records.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import type { IndexStorage } from "../storage/index-storage.ts";

export function serviceHandlers(
  config: ServiceConfig,
  storage: IndexStorage,
  registrySource: () => BuiltRegistry | null,
): Record<string, RouteHandler> {
  // The description depends only on whether storage-backed routes can answer, so each variant is built once.
  const documents = new Map<boolean, Record<string, unknown>>();
  const openApiDocument = (durableStorage: boolean) => {
    let document = documents.get(durableStorage);
    if (!document) {
      document = buildOpenApiDocument({
        routes: ALL_ROUTES,
        includeOperatorRoutes: false,
        durableStorage,
        environment: config.environment,
      });
      documents.set(durableStorage, document);
    }
    return document;
  };
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
        // This instance's own configuration and facts: no publisher's data.
        staticMeta: NO_ATTRIBUTION,
      };
    },

    "v1.openapi": () => ({ data: openApiDocument(storage.ready()), validUntil: Infinity }),

    "public.health.live": () => ({ data: { status: "live" }, staticMeta: NO_ATTRIBUTION }),

    "public.health.ready": () => {
      if (!registrySource()) throw new ApiError("SERVICE_UNAVAILABLE", "The registry is not loaded yet.");
      if (storage.bound && !storage.ready())
        throw new ApiError("SERVICE_UNAVAILABLE", "No index from a completed ingestion is published yet.");
      return {
        data: { ready: true, registry: "loaded", index: storage.bound ? "published" : "not-bound" },
        staticMeta: NO_ATTRIBUTION,
      };
    },
  };
}
