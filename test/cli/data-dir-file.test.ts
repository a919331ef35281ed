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
    for (const command of [["registry"], ["places"], ["keys", "create", "--scopes", "operator"], ["keys", "list"], ["query", "events"], ["ingest"], ["serve", "--port", "0"]]) {
      const result = runCli([...command, "--data-dir", file]);
      expect(result.status, command.join(" ")).toBe(2);
      expect(result.stderr, command.join(" ")).toBe(`configuration error: --data-dir ${file} is a file, not a folder\n${USAGE_HINT}\n`);
    }
  });

  it("names SERVICE_DATA_DIR when the variable gives it, and the file on the way to a folder that cannot be created", () => {
    const fromVariable = runCli(["registry"], { SERVICE_DATA_DIR: file });
    expect(fromVariable.status).toBe(2);
    expect(fromVariable.stderr).toBe(`configuration error: SERVICE_DATA_DIR ${file} is a file, not a folder\n${USAGE_HINT}\n`);

    const below = runCli(["registry", "--data-dir", join(file, "var")]);
    expect(below.status).toBe(2);
    expect(below.stderr).toBe(`configuration error: --data-dir ${join(file, "var")} cannot be created: ${file} is a file, not a folder\n${USAGE_HINT}\n`);
  });
});
