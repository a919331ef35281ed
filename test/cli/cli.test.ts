import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "cli-"));

describe("service CLI", () => {
  it("has help on every command", () => {
    for (const args of [["--help"], ["serve", "--help"], ["keys", "--help"], ["keys", "create", "--help"], ["keys", "list", "--help"], ["keys", "revoke", "--help"], ["openapi", "--help"], ["registry", "--help"], ["ingest", "--help"], ["query", "--help"], ["query", "events", "--help"], ["places", "--help"], ["demo-met", "--help"]]) {
      const result = runCli(args);
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout).toMatch(/^Usage: service/m);
    }
  });

  it("answers a bad flag with a one-line error and exit code 2", () => {
    const result = runCli(["serve", "--no-such-flag"]);
    expect(result.status).toBe(2);
    expect(result.stderr.split("\n")[0]).toMatch(/unknown option '--no-such-flag'/);
  });

  it("prints its version, and answers every usage error with a one-line message, a hint and exit code 2", () => {
    const version = runCli(["--version"]);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    for (const args of [["query", "events", "--bogus"], ["query", "events", "--json", "--csv"], ["ingest", "--from-archive", "/nonexistent"]]) {
      const result = runCli(args, { SERVICE_DATA_DIR: dataDir() });
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr.split("\n")[0], args.join(" ")).toMatch(/^error: /);
      expect(result.stderr, args.join(" ")).toContain("--help");
    }
    const noStore = runCli(["ingest"], { SERVICE_DATA_DIR: dataDir(), SERVICE_STORAGE: "false" });
    expect(noStore.status).toBe(2);
    expect(noStore.stderr).toMatch(/durable store/);
  });

  it("names the variable of a configuration problem", () => {
    const result = runCli(["serve"], { SERVICE_PORT: "eighty", SERVICE_DATA_DIR: dataDir() });
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe("configuration error: SERVICE_PORT must be an integer from 0 to 65535");
    const cors = runCli(["openapi"], { SERVICE_CORS_ORIGINS: "*", SERVICE_DATA_DIR: dataDir() });
    expect(cors.status).toBe(2);
    expect(cors.stderr).toMatch(/^configuration error: SERVICE_CORS_ORIGINS/);
  });

  it("creates a key, prints its secret once as the last line, stores only its hash, lists and revokes it", () => {
    const dir = dataDir();
    const env = { SERVICE_DATA_DIR: dir };
    const created = runCli(["keys", "create", "--scopes", "weather:read,economics:read", "--name", "dashboard", "--env", "preview"], env);
    expect(created.status).toBe(0);
    const lines = created.stdout.trim().split("\n");
    const secret = lines.at(-1)!;
    expect(secret).toMatch(/^svc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const stored = readFileSync(join(dir, "keys.json"), "utf8");
    expect(stored).not.toContain(secret);
    const id = secret.split("_")[1]!;
    const listed = runCli(["keys", "list"], env);
    expect(listed.stdout).toContain(`${id}  preview  weather:read,economics:read  dashboard`);
    expect(listed.stdout).not.toContain(secret);
    expect(runCli(["keys", "revoke", id], env).status).toBe(0);
    expect(runCli(["keys", "list"], env).stdout).toMatch(/revoked/);
  });

  it("refuses unknown scopes with exit code 2 and answers an unknown key id as not found, exit code 1", () => {
    const env = { SERVICE_DATA_DIR: dataDir() };
    expect(runCli(["keys", "create", "--scopes", "everything"], env).status).toBe(2);
    const revoke = runCli(["keys", "revoke", "0123456789abcdef"], env);
    expect(revoke.status).toBe(1);
    expect(revoke.stderr.split("\n")[0]).toBe("error: no key has id 0123456789abcdef");
  });

  it("writes keys to SERVICE_KEYS_FILE when set", () => {
    const file = join(dataDir(), "elsewhere.json");
    expect(runCli(["keys", "create", "--scopes", "operator"], { SERVICE_KEYS_FILE: file, SERVICE_DATA_DIR: dataDir() }).status).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).keys[0].scopes).toEqual(["operator"]);
  });

  it("prints the OpenAPI document", () => {
    const result = runCli(["openapi", "--no-storage"], { SERVICE_DATA_DIR: dataDir() });
    expect(result.status).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document.openapi).toBe("3.1.0");
    expect(document["x-service-durable-storage"]).toBe(false);
    expect(document.paths["/api/v1/admin/ingestion/runs"].post["x-service-required-scope"]).toBe("operator");
  });
});
