import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitUntil } from "../ingest/cli-process.ts";
import { startCli } from "../support/long-running-cli.ts";
import { runCli } from "../support/run-cli.ts";

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

  it("refuses to start in production with MET's default user agent: a configuration error naming SERVICE_WEATHER_USER_AGENT, exit 2", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "serve-production-"));
    for (const [args, env] of [
      [["serve", "--port", "0", "--env", "production"], { SERVICE_DATA_DIR: dataDir }],
      [["serve", "--port", "0"], { SERVICE_DATA_DIR: dataDir, SERVICE_ENV: "production" }],
    ] as const) {
      const result = runCli([...args], env);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^configuration error: SERVICE_WEATHER_USER_AGENT is not set: MET Norway blocks/);
      expect(result.stdout).toBe("");
    }
  });

  it("warns elsewhere, in a JSON line of its log, and every line it writes to stderr is JSON", async () => {
    // Following an object store that cannot be reached: the AWS SDK's own warning (on Node 20) and the failed polls
    // are written too, all of it as JSON lines.
    const dataDir = mkdtempSync(join(tmpdir(), "serve-agent-"));
    const service = startCli(["serve", "--port", "0", "--data-dir", dataDir, "--index-from", "s3://bucket-x/prefix"], {
      AWS_ENDPOINT_URL_S3: "http://127.0.0.1:1",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "none",
      AWS_SECRET_ACCESS_KEY: "none",
    });
    try {
      await service.waitForStdout(/listening on/, 30_000);
      await waitUntil(() => service.stderr().includes("index generation not taken"), 15_000, "a failed poll");
      const lines = service
        .stderr()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toContainEqual(expect.objectContaining({ level: "warn", setting: "SERVICE_WEATHER_USER_AGENT" }));
      // The fresh data directory had no place index: its build is told in the log too.
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: expect.stringMatching(/^place search index built/) }),
      );
    } finally {
      await service.stop("SIGTERM");
    }
    // The shutdown's lines too.
    for (const line of service.stderr().split("\n").filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
  }, 60_000);
});
