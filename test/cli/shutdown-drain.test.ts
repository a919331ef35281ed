import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startMetStandin } from "../../cli/demo/met-standin.ts";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));

describe("service serve on SIGTERM", () => {
  it("lets a request waiting on a slow MET finish, says so, and exits 0", async () => {
    const met = await startMetStandin({ host: "127.0.0.1", port: 0, latencyMs: 2_000 });
    try {
      const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--data-dir", mkdtempSync(join(tmpdir(), "drain-"))], {
        env: { PATH: process.env.PATH ?? "", SERVICE_WEATHER_BASE_URL: met.url, SERVICE_WEATHER_TIMEOUT_MS: "5000" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const url = await new Promise<string>((resolve) => {
        let stdout = "";
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          stdout += chunk;
          const listening = /listening on (http:\/\/[^\s/]+)/.exec(stdout);
          if (listening) resolve(listening[1]!);
        });
      });
      const answer = fetch(`${url}/api/public/v1/weather/current?lat=59.91&lon=10.75`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      child.kill("SIGTERM");
      const response = await answer;
      expect(response.status).toBe(200);
      expect((await response.json()).data.current).toBeDefined();
      expect(await exited).toBe(0);
      expect(stderr).toMatch(/SIGTERM: accepting no new connections/);
      expect(stderr).toMatch(/every request finished; stopped/);
    } finally {
      await met.close();
    }
  });
});
