import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startMetStandin } from "../../cli/demo/met-standin.ts";
import { startCli } from "../support/long-running-cli.ts";

describe("service serve on SIGTERM", () => {
  it("lets a request waiting on a slow MET finish, says so, and exits 0", async () => {
    const met = await startMetStandin({ host: "127.0.0.1", port: 0, latencyMs: 2_000 });
    try {
      const service = startCli(["serve", "--port", "0", "--data-dir", mkdtempSync(join(tmpdir(), "drain-"))], {
        SERVICE_WEATHER_BASE_URL: met.url,
        SERVICE_WEATHER_TIMEOUT_MS: "5000",
      });
      const [, url] = await service.waitForStdout(/listening on (http:\/\/[^\s/]+)/);
      const answer = fetch(`${url}/api/public/v1/weather/current?lat=59.91&lon=10.75`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const exited = service.stop("SIGTERM");
      const response = await answer;
      expect(response.status).toBe(200);
      expect((await response.json()).data.current).toBeDefined();
      expect(await exited).toBe(0);
      expect(service.stderr()).toMatch(/SIGTERM: accepting no new connections/);
      expect(service.stderr()).toMatch(/every request finished; stopped/);
    } finally {
      await met.close();
    }
  });
});
