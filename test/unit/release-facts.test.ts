import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../schemas/openapi.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import { SERVICE_VERSION } from "../../schemas/version.ts";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("release facts", () => {
  it("one version: package.json, its lock file, the OpenAPI description and a CHANGELOG entry say the same", () => {
    const lock = JSON.parse(read("package-lock.json")) as { version: string; packages: { "": { version: string } } };
    expect(JSON.parse(read("package.json")).version).toBe(SERVICE_VERSION);
    expect([lock.version, lock.packages[""].version]).toEqual([SERVICE_VERSION, SERVICE_VERSION]);
    const document = buildOpenApiDocument({
      routes: ALL_ROUTES,
      includeOperatorRoutes: false,
      durableStorage: true,
      environment: "test",
    }) as { info: { version: string } };
    expect(document.info.version).toBe(SERVICE_VERSION);
    expect(read("CHANGELOG.md")).toMatch(
      new RegExp(`^## \\[${SERVICE_VERSION.replaceAll(".", "\\.")}\\] - \\d{4}-\\d\\d-\\d\\d$`, "m"),
    );
  });

  it("the container's health check asks the liveness route of the route table, never a rate-limited one", () => {
    const check = /^HEALTHCHECK [\s\S]*?(\/api\/[^`"\s]+)`/m.exec(read("deploy/container/Containerfile"));
    const route = ALL_ROUTES.find((candidate) => candidate.path === check?.[1]);
    expect(route).toMatchObject({ name: "public.health.live", rateLimited: false });
  });
});
