import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startCli } from "../support/long-running-cli.ts";
import { declaredFamilies, parseExposition, sampleValue } from "../support/prometheus-exposition.ts";
import { runCli } from "../support/run-cli.ts";

const METRICS = "/api/v1/admin/metrics";
const PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

describe("service serve with SERVICE_METRICS_PORT", () => {
  it("serves the same metrics at /metrics on a separate listener, with no key", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "metrics-port-"));
    const env = { SERVICE_DATA_DIR: dataDir, SERVICE_ENV: "test" };
    const service = startCli(["serve", "--port", "0"], {
      ...env,
      SERVICE_METRICS_PORT: "0",
      SERVICE_LOG_LEVEL: "silent",
    });
    try {
      const [, url] = await service.waitForStdout(/listening on (http:\/\/[^\s/]+)/);
      const [, metricsUrl] = await service.waitForStdout(/metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/);
      expect((await fetch(`${url}/api/public/v1/health/live`)).status).toBe(200);

      const separate = await fetch(metricsUrl!);
      expect(separate.status).toBe(200);
      expect(separate.headers.get("content-type")).toBe(PROMETHEUS_TEXT);
      const separateText = await separate.text();
      expect(
        sampleValue(parseExposition(separateText), "service_http_request_duration_seconds_count", {
          route: "public.health.live",
          status: "200",
        }),
      ).toBe(1);

      const created = runCli(["keys", "create", "--scopes", "operator"], env);
      expect(created.status).toBe(0);
      const key = created.stdout.trim().split("\n").at(-1)!;
      const viaRoute = await fetch(`${url}${METRICS}`, { headers: { authorization: `Bearer ${key}` } });
      expect(viaRoute.status).toBe(200);
      const routeText = await viaRoute.text();
      expect(declaredFamilies(routeText)).toEqual(declaredFamilies(separateText));
      expect(
        sampleValue(parseExposition(routeText), "service_http_request_duration_seconds_count", {
          route: "public.health.live",
          status: "200",
        }),
      ).toBe(1);

      // Only /metrics, only read: the listener is not a second door to the API.
      const origin = new URL(metricsUrl!).origin;
      expect((await fetch(`${origin}/api/public/v1/health/live`)).status).toBe(404);
      const post = await fetch(metricsUrl!, { method: "POST" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD");
    } finally {
      await service.stop("SIGTERM");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses a value that is not a port, naming the variable, with exit code 2", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "metrics-port-"));
    try {
      const refused = runCli(["serve", "--port", "0"], { SERVICE_DATA_DIR: dataDir, SERVICE_METRICS_PORT: "70000" });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("SERVICE_METRICS_PORT must be an integer from 0 to 65535");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
