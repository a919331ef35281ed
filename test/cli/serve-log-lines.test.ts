import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitUntil } from "../ingest/cli-process.ts";
import { startCli } from "../support/long-running-cli.ts";

describe("the server's log on a quiet server", () => {
  it("writes a single request's line to stderr while the process runs, not only at the next 4 KB of lines or at exit", async () => {
    const service = startCli(["serve", "--port", "0", "--data-dir", mkdtempSync(join(tmpdir(), "serve-log-"))]);
    try {
      const [, url] = await service.waitForStdout(/listening on (http:\/\/[^\s/]+)/, 30_000);
      const response = await fetch(`${url}/api/public/v1/health/live`);
      expect(response.status).toBe(200);
      const requestId = response.headers.get("x-request-id")!;
      await waitUntil(() => service.stderr().includes(requestId), 10_000, "the request's log line on stderr");
      const line = service
        .stderr()
        .split("\n")
        .find((text) => text.includes(requestId))!;
      expect(JSON.parse(line)).toMatchObject({
        level: "info",
        msg: "request",
        requestId,
        route: "public.health.live",
        status: 200,
      });
    } finally {
      await service.stop("SIGTERM");
    }
  }, 60_000);
});
