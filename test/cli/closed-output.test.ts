import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { closeSync, existsSync, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { startCli } from "../support/long-running-cli.ts";
import { runCli } from "../support/run-cli.ts";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
const SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));
const env = () => ({ PATH: process.env.PATH ?? "", SERVICE_DATA_DIR: mkdtempSync(join(tmpdir(), "cli-output-")) });

describe("output that cannot be written", () => {
  it("ends quietly with exit code 0 when the reader closed the pipe (`service openapi | head`)", async () => {
    const running = startCli(["openapi", "--no-storage"], env());
    // The reading end goes away before the document (hundreds of kilobytes) is written: every write meets EPIPE.
    running.child.stdout!.destroy();
    const [code, signal] = await once(running.child, "close");
    expect({ code, signal, stderr: running.stderr() }).toEqual({ code: 0, signal: null, stderr: "" });
  });

  it("keys create: a secret that could not be written is exit code 1, said on stderr, and its key is revoked; keys list still ends with 0", async () => {
    const runEnv = env();
    const running = startCli(["keys", "create", "--scopes", "operator", "--name", "lost"], runEnv);
    running.child.stdout!.destroy();
    const [code] = await once(running.child, "close");
    expect(code).toBe(1);
    expect(running.stderr()).toMatch(
      /^error: the secret of key [0-9a-f]+ could not be written \(.*\), so the key is revoked: create another\n$/,
    );
    const listed = runCli(["keys", "list"], runEnv);
    expect(listed.stdout).toMatch(/^[0-9a-f]{16} +revoked +development +operator +lost\b/m);

    const listing = startCli(["keys", "list"], runEnv);
    listing.child.stdout!.destroy();
    expect(await once(listing.child, "close")).toEqual([0, null]);
  }, 30_000);

  it("a stderr nobody reads (`service ingest 2>&1 | head`) neither crashes the run nor ends it early: it publishes and exits 0", async () => {
    for (const logFormat of ["text", "json"]) {
      const runEnv = env();
      const running = startCli(
        [
          "ingest",
          "--from-archive",
          SAMPLES_DIR,
          "--source",
          "central-bank-meetings-calendar",
          "--log-format",
          logFormat,
        ],
        runEnv,
      );
      // Gone before the first progress line: every write to stderr meets EPIPE.
      running.child.stderr!.destroy();
      const [code, signal] = await once(running.child, "close");
      expect({ logFormat, code, signal, published: /index published/.test(running.stdout()) }).toEqual({
        logFormat,
        code: 0,
        signal: null,
        published: true,
      });
      expect(existsSync(join(runEnv.SERVICE_DATA_DIR, DATA_FILES.index))).toBe(true);
    }
  }, 60_000);

  it.skipIf(!existsSync("/dev/full"))(
    "says so in one line with exit code 1 for any other failure (a full disk)",
    () => {
      const full = openSync("/dev/full", "w");
      try {
        const result = spawnSync(process.execPath, [BIN, "openapi", "--no-storage"], {
          env: env(),
          stdio: ["ignore", full, "pipe"],
          encoding: "utf8",
          timeout: 30_000,
        });
        expect(result.status).toBe(1);
        expect(result.stderr).toBe("error: the output could not be written: ENOSPC: no space left on device, write\n");
      } finally {
        closeSync(full);
      }
    },
  );
});
