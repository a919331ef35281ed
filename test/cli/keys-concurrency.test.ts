import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readKeyFile } from "../../server/keys/key-file.ts";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));

/** The real executable as a child process, so several run at once as an operator's scripts would. */
function service(args: string[], dataDir: string): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, SERVICE_DATA_DIR: dataDir } });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.on("close", (status) => resolve({ status, stdout }));
  });
}

describe("concurrent service keys commands", () => {
  it("lose no key and no revocation when ten creates and a revoke run at once", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "keys-race-"));
    const first = await service(["keys", "create", "--scopes", "weather:read", "--name", "to-revoke"], dataDir);
    const revokedId = /created key ([0-9a-f]+)/.exec(first.stdout)![1]!;

    const runs = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        service(["keys", "create", "--scopes", "economics:read", "--name", `k${i}`], dataDir),
      ),
      service(["keys", "revoke", revokedId], dataDir),
    ]);

    expect(runs.map((run) => run.status)).toEqual(Array(11).fill(0));
    const stored = readKeyFile(join(dataDir, "keys.json")).keys;
    expect(stored.map((key) => key.name).sort()).toEqual([
      "k0",
      "k1",
      "k2",
      "k3",
      "k4",
      "k5",
      "k6",
      "k7",
      "k8",
      "k9",
      "to-revoke",
    ]);
    expect(stored.find((key) => key.id === revokedId)!.revokedAt).not.toBeNull();
  });
});
