import { buildOpenApiDocument } from "../../schemas/openapi.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import type { ServiceConfig } from "../config.ts";
import { ApiError } from "../http/api-error.ts";
import { NO_ATTRIBUTION } from "../http/attribution-records.ts";
import type { RouteHandlers } from "../http/route-handler.ts";
import { SerialisedSection } from "../http/serialised-section.ts";
import type { IndexStorage } from "../storage/index-storage.ts";

export function serviceHandlers(
  config: ServiceConfig,
  storage: IndexStorage,
  registrySource: () => BuiltRegistry | null,
): RouteHandlers {
  // Each form (index served or not) is serialised once: a URL the answer cache does not hold costs no rebuild.
  const openApiBodies = new Map<boolean, SerialisedSection>();
  const openApiBody = (durableStorage: boolean) => {
    if (!openApiBodies.has(durableStorage)) {
      const document = buildOpenApiDocument({
        routes: ALL_ROUTES,
        includeOperatorRoutes: false,
        durableStorage,
        environment: config.environment,
      });
      openApiBodies.set(durableStorage, new SerialisedSection(JSON.stringify(document)));
    }
    return openApiBodies.get(durableStorage)!;
  };
  return {
    "v1.capabilities": () => {
      const index = storage.current();
      const facts = index?.facts;
      return {
        data: {
          environment: config.environment,
          durableStorage: {
            bound: storage.durableStorage,
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

    // Kept by the pipeline (it names the index and registry it was built from) until either changes.
    "v1.openapi": () => ({ data: openApiBody(storage.ready()), validUntil: Infinity }),

    "public.health.live": () => ({ data: { status: "live" }, staticMeta: NO_ATTRIBUTION }),

    "public.health.ready": () => {
      if (!registrySource()) throw new ApiError("SERVICE_UNAVAILABLE", "The registry is not loaded yet.");
      if (storage.durableStorage && !storage.ready())
        throw new ApiError("SERVICE_UNAVAILABLE", "No index from a completed ingestion is published yet.");
      return {
        data: { ready: true, registry: "loaded", index: storage.durableStorage ? "published" : "not-bound" },
        staticMeta: NO_ATTRIBUTION,
      };
    },
  };
}
