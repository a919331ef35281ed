import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { closeSync, existsSync, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startCli } from "../support/long-running-cli.ts";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
const env = () => ({ PATH: process.env.PATH ?? "", SERVICE_DATA_DIR: mkdtempSync(join(tmpdir(), "cli-output-")) });

describe("output that cannot be written", () => {
  it("ends quietly with exit code 0 when the reader closed the pipe (`service openapi | head`)", async () => {
    const running = startCli(["openapi", "--no-storage"], env());
    // The reading end goes away before the document (hundreds of kilobytes) is written: every write meets EPIPE.
    running.child.stdout!.destroy();
    const [code, signal] = await once(running.child, "close");
    expect({ code, signal, stderr: running.stderr() }).toEqual({ code: 0, signal: null, stderr: "" });
  });

  it.skipIf(!existsSync("/dev/full"))("says so in one line with exit code 1 for any other failure (a full disk)", () => {
    const full = openSync("/dev/full", "w");
    try {
      const result = spawnSync(process.execPath, [BIN, "openapi", "--no-storage"], { env: env(), stdio: ["ignore", full, "pipe"], encoding: "utf8", timeout: 30_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe("error: the output could not be written: ENOSPC: no space left on device, write\n");
    } finally {
      closeSync(full);
    }
  });
});
