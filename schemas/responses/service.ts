import { arrayOf, bool, dateTime, enumOf, nullable, obj, str } from "../json-schema.ts";

export const capabilitiesSchema = obj({
  environment: str(),
  durableStorage: obj({
    bound: bool(),
    indexPresent: bool(),
    ingestionCompleted: bool(),
    storageBackedRoutesAvailable: bool(),
    lastIngestedAt: nullable(dateTime()),
    lastSuccessfulIngestionAt: nullable(dateTime()),
  }),
  sources: arrayOf(
    obj({
      id: str(),
      domain: enumOf(["weather", "economics", "news"]),
      enabled: bool(),
      usesPublisherHost: bool(),
    }),
  ),
});

export const liveSchema = obj({ status: enumOf(["live"]) });

export const readySchema = obj({
  ready: bool(),
  registry: enumOf(["loaded"]),
  index: enumOf(["published", "not-bound"]),
});

export const openApiDocumentSchema = { type: "object", required: ["openapi", "info", "paths"] };
