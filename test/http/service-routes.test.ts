import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_TABLE, type ErrorCode } from "../../schemas/errors.ts";
import { INDEX_DDL } from "../../schemas/index-ddl.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import { SERVICE_VERSION } from "../../schemas/version.ts";
import { type RunningService, startService } from "../support/service.ts";

/** A published index holding only its publication facts (null: built, but by no completed ingestion). */
function dataDirWithIndex(ingestedAt: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), "seed-"));
  const db = new Database(join(dir, "index.sqlite"));
  db.exec(INDEX_DDL);
  const insert = db.prepare("INSERT INTO publication (key, value) VALUES (?, ?)");
  for (const key of ["publishedAt", "lastIngestedAt", "lastSuccessfulIngestionAt"]) insert.run(key, ingestedAt);
  db.close();
  return dir;
}

describe("capabilities", () => {
  const services: RunningService[] = [];
  afterAll(async () => {
    for (const service of services) await service.close();
  });

  async function capabilitiesOf(options: Parameters<typeof startService>[0]) {
    const service = await startService(options);
    services.push(service);
    const { status, body } = await service.request("/api/v1/capabilities", {
      headers: { "x-api-key": service.createKey(["weather:read"]) },
    });
    expect(status).toBe(200);
    return body.data;
  }

  it("reports storage-backed routes unavailable with no index", async () => {
    const data = await capabilitiesOf({});
    expect(data.environment).toBe("test");
    expect(data.durableStorage).toEqual({
      bound: true,
      indexPresent: false,
      ingestionCompleted: false,
      storageBackedRoutesAvailable: false,
      lastIngestedAt: null,
      lastSuccessfulIngestionAt: null,
    });
  });

  it("reports them unavailable when an index exists but no ingestion completed", async () => {
    const data = await capabilitiesOf({ seedDataDir: dataDirWithIndex(null) });
    expect(data.durableStorage).toMatchObject({
      indexPresent: true,
      ingestionCompleted: false,
      storageBackedRoutesAvailable: false,
    });
  });

  it("reports them available with an index from a completed ingestion", async () => {
    const data = await capabilitiesOf({ seedDataDir: dataDirWithIndex("2026-11-20T06:00:00.000Z") });
    expect(data.durableStorage).toMatchObject({
      indexPresent: true,
      ingestionCompleted: true,
      storageBackedRoutesAvailable: true,
      lastSuccessfulIngestionAt: "2026-11-20T06:00:00.000Z",
    });
  });

  it("reports no durable store on a deployment without one, even with an index file", async () => {
    const data = await capabilitiesOf({
      durableStorage: false,
      seedDataDir: dataDirWithIndex("2026-11-20T06:00:00.000Z"),
    });
    expect(data.durableStorage).toMatchObject({ bound: false, storageBackedRoutesAvailable: false });
  });
});

describe("OpenAPI description", () => {
  let service: RunningService;
  let document: any;
  beforeAll(async () => {
    service = await startService({ seedDataDir: dataDirWithIndex("2026-11-20T06:00:00.000Z") });
    document = (await service.request("/api/v1/openapi.json")).body;
  });
  afterAll(() => service.close());

  it("is a valid OpenAPI 3.1.0 document at the service's version", async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe(SERVICE_VERSION);
  });

  it("leaves out the operator routes, which answer everyone else like unregistered paths", () => {
    expect(Object.keys(document.paths).some((path) => path.startsWith("/api/v1/admin/"))).toBe(false);
  });

  it("describes every other route of the contract with the service extensions", () => {
    for (const route of ALL_ROUTES.filter(
      (candidate) => candidate.access !== "OPERATOR" && candidate.described !== false,
    )) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, route.name).toBeDefined();
      expect(operation["x-service-route-name"]).toBe(route.name);
      expect(operation["x-service-access"]).toBe(route.access === "PUBLIC" ? "PUBLIC" : "ECOSYSTEM_INTERNAL");
      expect(operation["x-service-required-scope"]).toBe(route.scope);
      expect(operation["x-service-requires-durable-storage"]).toBe(route.requiresDurableStorage);
      expect(operation["x-service-error-codes"]).toEqual(route.errorCodes);
      expect(operation["x-service-ignored-parameters"]).toEqual(route.ignoredParameters);
      expect(operation["x-service-public-cache-seconds"]).toBe(route.publicCacheSeconds);
      // Each route once: HEAD, which every GET answers, is said once in the description rather than listed.
      expect(document.paths[route.path].head, route.name).toBeUndefined();
    }
    expect(document.info.description).toMatch(/Every GET operation also answers HEAD/);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      "serviceApiKeyBearer",
      "serviceApiKeyHeader",
    ]);
  });

  it("gives every parameter an example value and every error example a code of its own status", () => {
    const operations = Object.values(document.paths as Record<string, Record<string, any>>).flatMap((item) =>
      Object.values(item),
    );
    for (const operation of operations) {
      for (const parameter of operation.parameters ?? []) {
        const examples = parameter.schema.examples as unknown[] | undefined;
        expect(examples?.length, `${operation.operationId} ${parameter.name}`).toBeGreaterThan(0);
        for (const example of examples!) {
          if (parameter.schema.enum) expect(parameter.schema.enum).toContain(example);
          if (parameter.schema.pattern) expect(String(example)).toMatch(new RegExp(parameter.schema.pattern));
        }
      }
      const errors = Object.entries(operation.responses as Record<string, any>).filter(([status]) => status >= "400");
      expect(errors.length, operation.operationId).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        const examples = Object.values(response.content["application/json"].examples) as any[];
        const codes = examples.map((example) => example.value.error.code);
        expect(codes.sort(), `${operation.operationId} ${status}`).toEqual(
          operation["x-service-error-codes"]
            .filter((code: ErrorCode) => String(ERROR_TABLE[code].status) === status)
            .sort(),
        );
      }
    }
  });

  it("publishes the spec's error code sets", () => {
    const codes = (path: string) => document.paths[path].get["x-service-error-codes"];
    const firstSeven = [
      "BAD_REQUEST",
      "UNAUTHORIZED",
      "FORBIDDEN",
      "METHOD_NOT_ALLOWED",
      "RATE_LIMITED",
      "CONFIGURATION_ERROR",
      "INTERNAL",
    ];
    expect(codes("/api/v1/weather/current").sort()).toEqual(
      [
        ...firstSeven,
        "VALIDATION_FAILED",
        "WEATHER_LOCATION_INVALID",
        "SOURCE_DISABLED",
        "UPSTREAM_UNAVAILABLE",
        "UPSTREAM_INVALID_PAYLOAD",
        "UPSTREAM_PAYLOAD_TOO_LARGE",
        "UPSTREAM_TIMEOUT",
      ].sort(),
    );
    expect(codes("/api/v1/economics/events").sort()).toEqual(
      [
        ...firstSeven,
        "VALIDATION_FAILED",
        "ECONOMICS_RANGE_INVALID",
        "SERVICE_UNAVAILABLE",
        "STORAGE_UNAVAILABLE",
      ].sort(),
    );
    expect(codes("/api/v1/economics/indicators").sort()).toEqual([...firstSeven, "VALIDATION_FAILED"].sort());
    expect(codes("/api/v1/economics/indicators/{slug}").sort()).toEqual([...firstSeven, "NOT_FOUND"].sort());
  });

  it("states what the service does with counts, tz and vintages", () => {
    const parameters = Object.values(document.paths as Record<string, Record<string, { parameters?: any[] }>>)
      .flatMap((item) => Object.values(item))
      .flatMap((operation) => operation.parameters ?? []);
    const named = (name: string) => parameters.filter((parameter) => parameter.name === name);
    // Every count is read by one rule (parseLimit): empty is its default, below 1 is refused.
    for (const count of [
      ...named("limit"),
      ...named("hours"),
      ...named("perSeries"),
      ...named("days").filter((days) => days.schema.type === "integer"),
    ]) {
      expect(count.schema, count.name).toMatchObject({ type: "integer", minimum: 1, default: expect.any(Number) });
      expect(count.description, count.name).toMatch(/empty is the default.*below 1 .*gives VALIDATION_FAILED/);
    }
    // One operation each (HEAD is not listed apart).
    expect(named("hours")).toHaveLength(1);
    expect(named("perSeries")).toHaveLength(1);
    // Absent, tz projects nothing: only the forecasts, whose days are UTC without it, state a default.
    for (const [path, item] of Object.entries(
      document.paths as Record<string, Record<string, { parameters?: any[] }>>,
    )) {
      const tz = item.get?.parameters?.find((parameter) => parameter.name === "tz");
      if (tz) expect(tz.schema.default, path).toBe(path.endsWith("/weather/forecast") ? "UTC" : undefined);
    }
    for (const vintages of named("vintages")) expect(vintages.description).toMatch(/case-insensitive/);
  });

  it("reflects this deployment's durable storage at the root", async () => {
    expect(document["x-service-durable-storage"]).toBe(true);
    const bare = await startService({ durableStorage: false });
    try {
      expect((await bare.request("/api/v1/openapi.json")).body["x-service-durable-storage"]).toBe(false);
    } finally {
      await bare.close();
    }
  });
});
