import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.ts";

const USAGE_HINT = "(run with --help for usage)";

/** A data directory where a file is: a configuration problem (exit 2), as a --registry-dir that is no folder is. */
describe("a data directory that is a file", () => {
  const file = join(mkdtempSync(join(tmpdir(), "data-dir-file-")), "not-a-folder");
  writeFileSync(file, "");

  it("is one configuration error naming it, for every command that reads or writes it", () => {
    for (const command of [
      ["registry"],
      ["places"],
      ["keys", "create", "--scopes", "operator"],
      ["keys", "list"],
      ["query", "events"],
      ["ingest"],
      ["serve", "--port", "0"],
    ]) {
      const result = runCli([...command, "--data-dir", file]);
      expect(result.status, command.join(" ")).toBe(2);
      expect(result.stderr, command.join(" ")).toBe(
        `configuration error: --data-dir ${file} is a file, not a folder\n${USAGE_HINT}\n`,
      );
    }
  });

  it("names SERVICE_DATA_DIR when the variable gives it, and the file on the way to a folder that cannot be created", () => {
    const fromVariable = runCli(["registry"], { SERVICE_DATA_DIR: file });
    expect(fromVariable.status).toBe(2);
    expect(fromVariable.stderr).toBe(
      `configuration error: SERVICE_DATA_DIR ${file} is a file, not a folder\n${USAGE_HINT}\n`,
    );

    const below = runCli(["registry", "--data-dir", join(file, "var")]);
    expect(below.status).toBe(2);
    expect(below.stderr).toBe(
      `configuration error: --data-dir ${join(file, "var")} cannot be created: ${file} is a file, not a folder\n${USAGE_HINT}\n`,
    );
  });
});

/** The key file's path likewise: a file on the way to it, or a folder in its place, is named before anything runs. */
describe("a key file that cannot be written", () => {
  const root = mkdtempSync(join(tmpdir(), "keys-file-path-"));
  const file = join(root, "not-a-folder");
  writeFileSync(file, "");
  const dataDir = join(root, "var");

  it("is a configuration error naming SERVICE_KEYS_FILE and the file on its way, for the key commands and serve", () => {
    const keysFile = join(file, "keys.json");
    for (const command of [
      ["keys", "create", "--scopes", "operator"],
      ["keys", "list"],
      ["keys", "revoke", "0123456789abcdef"],
      ["serve", "--port", "0"],
    ]) {
      const result = runCli([...command, "--data-dir", dataDir], { SERVICE_KEYS_FILE: keysFile });
      expect(result.status, command.join(" ")).toBe(2);
      expect(result.stderr, command.join(" ")).toBe(
        `configuration error: SERVICE_KEYS_FILE ${keysFile} cannot be created: ${file} is a file, not a folder\n${USAGE_HINT}\n`,
      );
    }
  });

  it("does not stop the commands that never use the key file", () => {
    const result = runCli(["openapi", "--no-storage", "--data-dir", dataDir], {
      SERVICE_KEYS_FILE: join(file, "keys.json"),
    });
    expect(result.status, result.stderr).toBe(0);
  });

  it("is a configuration error when SERVICE_KEYS_FILE names a folder", () => {
    const result = runCli(["keys", "list", "--data-dir", dataDir], { SERVICE_KEYS_FILE: root });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `configuration error: SERVICE_KEYS_FILE ${root} is a folder, not a file\n${USAGE_HINT}\n`,
    );
  });
});
