import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { acquireIngestionLock } from "../../cli/ingest/run-lock.ts";
import { runCliAsync } from "../support/run-cli.ts";

const QUERY_SUBCOMMANDS = ["events", "calendar", "releases", "observations", "series", "indicators"];
const REGISTRY_DIR = fileURLToPath(new URL("../../data/registry", import.meta.url));

const dataDir = () => mkdtempSync(join(tmpdir(), "cli-"));

// Concurrent: every test has its own directories, and a run of the executable spends its time loading modules on
// one core; up to five tests (vitest's maxConcurrency) run side by side, each its runs one after another.
describe.concurrent("service CLI", () => {
  // One test per command (and below, per empty value): a test runs its runs one after another, and the tests run side
  // by side, so no test waits through a long row of runs on a busy machine.
  it.for(
    [
      ["--help"],
      ["serve", "--help"],
      ["keys", "--help"],
      ["keys", "create", "--help"],
      ["keys", "list", "--help"],
      ["keys", "revoke", "--help"],
      ["openapi", "--help"],
      ["registry", "--help"],
      ["ingest", "--help"],
      ["query", "--help"],
      ["query", "events", "--help"],
      ["places", "--help"],
      ["demo-met", "--help"],
    ].map((args) => [args.join(" "), args] as const),
  )("has help on every command: %s", async ([, args]) => {
    const result = await runCliAsync(args);
    expect(result.status, args.join(" ")).toBe(0);
    expect(result.stdout).toMatch(/^Usage: service/m);
  });

  // One test per command, three runs of the executable each: all 45 runs in one test could outlast the time-out on a
  // busy machine.
  it.for(
    [
      ["serve"],
      ["keys", "create", "--scopes", "operator"],
      ["keys", "list"],
      ["keys", "revoke", "0123456789abcdef"],
      ["openapi"],
      ["registry"],
      ["places"],
      ["ingest"],
      ...QUERY_SUBCOMMANDS.map((name) => ["query", name]),
      ["demo-met"],
    ].map((command) => [command.join(" "), command] as const),
  )("answers a bad flag, a missing value or a stray argument on every command and subcommand with one line, the usage hint and exit code 2: %s", async (entry) => {
    const command = entry[1];
    const env = { SERVICE_DATA_DIR: dataDir() };
    for (const [bad, message] of [
      [["--no-such-flag"], /^error: unknown option '--no-such-flag'$/],
      [["stray"], /^error: too many arguments for '[a-z-]+'\. Expected \d arguments? but got \d\.$/],
      [["--data-dir"], /^error: option '--data-dir <dir>' argument missing$/],
    ] as const) {
      // demo-met has no data directory: its --host takes the missing value instead.
      const args = [...command, ...(command[0] === "demo-met" && bad[0] === "--data-dir" ? ["--host"] : bad)];
      const result = await runCliAsync(args, env);
      const expected =
        command[0] === "demo-met" && bad[0] === "--data-dir"
          ? /^error: option '--host <host>' argument missing$/
          : message;
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr.split("\n"), args.join(" ")).toEqual([
        expect.stringMatching(expected),
        "(run with --help for usage)",
        "",
      ]);
      expect(result.stdout, args.join(" ")).toBe("");
    }
  });

  it("answers a command named without its subcommand with its help on stderr and exit code 2", async () => {
    for (const args of [[], ["keys"], ["query"]]) {
      const result = await runCliAsync(args);
      expect(result.status, `${args.join(" ")}: ${result.stderr}`).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(/^Usage: service/);
      expect(result.stdout).toBe("");
    }
    const unknown = await runCliAsync(["query", "nosuch"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe("error: unknown command 'nosuch'\n(run with --help for usage)\n");
  });

  it("prints a message naming what failed, with exit code 1, for failures that are not usage errors", async () => {
    const dir = dataDir();
    writeFileSync(join(dir, "keys.json"), "{ not json");
    const keys = await runCliAsync(["keys", "list"], { SERVICE_DATA_DIR: dir });
    expect(keys.status).toBe(1);
    expect(keys.stderr).toMatch(new RegExp(`^error: key file ${join(dir, "keys.json")}: .+\n$`));

    const registry = mkdtempSync(join(tmpdir(), "cli-registry-"));
    cpSync(REGISTRY_DIR, registry, { recursive: true });
    writeFileSync(join(registry, "series.json"), "[");
    const build = await runCliAsync(["registry", "--registry-dir", registry], { SERVICE_DATA_DIR: dir });
    expect(build.status).toBe(1);
    expect(build.stderr).toMatch(new RegExp(`^error: registry source ${join(registry, "series.json")}: .+\n$`));

    const release = acquireIngestionLock(dir);
    try {
      const ingest = await runCliAsync(["ingest", "--from-archive", "data/samples"], { SERVICE_DATA_DIR: dir });
      expect(ingest.status).toBe(1);
      // The lock records its holder (here this test's process), and the refusal names it.
      expect(ingest.stderr).toBe(
        `error: another ingestion run (pid ${process.pid}) is in progress for this data directory\n`,
      );
      // The refused run wrote nothing: the registry is published under the lock, by the run that holds it.
      expect(existsSync(join(dir, "registry.json"))).toBe(false);
      const registryWhileLocked = await runCliAsync(["registry"], { SERVICE_DATA_DIR: dir });
      expect([registryWhileLocked.status, registryWhileLocked.stderr]).toEqual([1, ingest.stderr]);
      expect(existsSync(join(dir, "registry.json"))).toBe(false);
    } finally {
      release!();
    }
  });

  it("prints its version, and answers every usage error with a one-line message, a hint and exit code 2", async () => {
    const version = await runCliAsync(["--version"]);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    for (const args of [
      ["query", "events", "--bogus"],
      ["query", "events", "--json", "--csv"],
      ["ingest", "--from-archive", "/nonexistent"],
    ]) {
      const result = await runCliAsync(args, { SERVICE_DATA_DIR: dataDir() });
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr.split("\n")[0], args.join(" ")).toMatch(/^error: /);
      expect(result.stderr, args.join(" ")).toContain("--help");
    }
    const noStore = await runCliAsync(["ingest"], { SERVICE_DATA_DIR: dataDir(), SERVICE_STORAGE: "false" });
    expect(noStore.status).toBe(2);
    expect(noStore.stderr).toMatch(/durable store/);
  });

  it.for(
    (
      [
        ...[
          ["serve"],
          ["keys", "create", "--scopes", "operator"],
          ["keys", "list"],
          ["openapi"],
          ["registry"],
          ["places"],
          ["ingest"],
          ["query", "events"],
        ].map((command): [string[], string] => [[...command, "--data-dir", ""], "--data-dir"]),
        [["registry", "--registry-dir", ""], "--registry-dir"],
        [["serve", "--port", ""], "--port"],
        [["demo-met", "--port", ""], "--port"],
        [["demo-met", "--host", ""], "--host"],
        // Not a live fetch from the publishers: the operator named an archive, only its value went missing.
        [["ingest", "--from-archive", ""], "--from-archive"],
        [["ingest", "--publish-to", ""], "--publish-to"],
        [["serve", "--index-from", ""], "--index-from"],
      ] as [string[], string][]
    ).map(([args, flag]) => [args.join(" "), args, flag] as const),
  )("refuses an empty --data-dir, --registry-dir, --port, --from-archive or object-store URL as a usage error, writing nothing in the current directory: %s", async ([
    ,
    args,
    flag,
  ]) => {
    const cwd = dataDir();
    const result = await runCliAsync(args, { SERVICE_DATA_DIR: dataDir() }, { cwd });
    expect(result.status, args.join(" ")).toBe(2);
    expect(result.stderr, args.join(" ")).toBe(
      `configuration error: ${flag} must not be empty\n(run with --help for usage)\n`,
    );
    expect(readdirSync(cwd), args.join(" ")).toEqual([]);
  });

  it("takes an empty SERVICE_DATA_DIR as unset: the default ./var", async () => {
    const cwd = dataDir();
    const result = await runCliAsync(["registry"], { SERVICE_DATA_DIR: "" }, { cwd });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`registry published to ${join(cwd, "var", "registry.json")}\n`);
    expect(readdirSync(cwd)).toEqual(["var"]);
  });

  it("names the variable of a configuration problem", async () => {
    const result = await runCliAsync(["serve"], { SERVICE_PORT: "eighty", SERVICE_DATA_DIR: dataDir() });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      "configuration error: SERVICE_PORT must be an integer from 0 to 65535\n(run with --help for usage)\n",
    );
    const cors = await runCliAsync(["openapi"], { SERVICE_CORS_ORIGINS: "*", SERVICE_DATA_DIR: dataDir() });
    expect(cors.status).toBe(2);
    expect(cors.stderr).toMatch(/^configuration error: SERVICE_CORS_ORIGINS/);
  });

  it("creates a key, prints its secret once as the last line, stores only its hash, lists and revokes it", async () => {
    const dir = dataDir();
    const env = { SERVICE_DATA_DIR: dir };
    const created = await runCliAsync(
      ["keys", "create", "--scopes", "weather:read,economics:read", "--name", "dashboard", "--env", "preview"],
      env,
    );
    expect(created.status).toBe(0);
    const lines = created.stdout.trim().split("\n");
    const secret = lines.at(-1)!;
    expect(secret).toMatch(/^svc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const stored = readFileSync(join(dir, "keys.json"), "utf8");
    expect(stored).not.toContain(secret);
    const id = secret.split("_")[1]!;
    const listed = await runCliAsync(["keys", "list"], env);
    expect(listed.stdout).toMatch(new RegExp(`^${id} +active +preview +weather:read, economics:read +dashboard$`, "m"));
    expect(listed.stdout).not.toContain(secret);
    expect((await runCliAsync(["keys", "revoke", id], env)).status).toBe(0);
    expect((await runCliAsync(["keys", "list"], env)).stdout).toMatch(/revoked/);
  });

  it("refuses a key file with a damaged entry, naming the file and the entry, and leaves the file as it was", async () => {
    const dir = dataDir();
    const path = join(dir, "keys.json");
    const damaged = '{"keys":[{"id":1}]}';
    writeFileSync(path, damaged);
    for (const args of [
      ["keys", "list"],
      ["keys", "create", "--scopes", "operator"],
      ["keys", "revoke", "0123456789abcdef"],
    ]) {
      const result = await runCliAsync(args, { SERVICE_DATA_DIR: dir });
      expect(result.status, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toBe(`error: key file ${path}: entry 1 has no id\n`);
      expect(result.stdout, args.join(" ")).toBe("");
      expect(readFileSync(path, "utf8")).toBe(damaged);
    }
  });

  it("refuses unknown scopes with exit code 2 and answers an unknown key id as not found, exit code 1", async () => {
    const env = { SERVICE_DATA_DIR: dataDir() };
    expect((await runCliAsync(["keys", "create", "--scopes", "everything"], env)).status).toBe(2);
    const revoke = await runCliAsync(["keys", "revoke", "0123456789abcdef"], env);
    expect(revoke.status).toBe(1);
    expect(revoke.stderr.split("\n")[0]).toBe("error: no key has id 0123456789abcdef");
  });

  it("refuses an empty key name and an id no key can have as usage errors, exit code 2", async () => {
    const env = { SERVICE_DATA_DIR: dataDir() };
    for (const [args, message] of [
      [
        ["keys", "create", "--scopes", "operator", "--name", " "],
        "error: option '--name <label>' argument ' ' is invalid. the name must not be empty (leave --name out for \"unnamed\")",
      ],
      [
        ["keys", "revoke", ""],
        "error: command-argument value '' is invalid for argument 'id'. a key id is 16 hexadecimal digits, as keys list shows it",
      ],
    ] as const) {
      const result = await runCliAsync([...args], env);
      expect([result.status, result.stderr.split("\n")[0]], args.join(" ")).toEqual([2, message]);
    }
    expect(existsSync(join(env.SERVICE_DATA_DIR, "keys.json"))).toBe(false);
  });

  it("writes keys to SERVICE_KEYS_FILE when set", async () => {
    const file = join(dataDir(), "elsewhere.json");
    const created = await runCliAsync(["keys", "create", "--scopes", "operator"], {
      SERVICE_KEYS_FILE: file,
      SERVICE_DATA_DIR: dataDir(),
    });
    expect(created.status).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).keys[0].scopes).toEqual(["operator"]);
  });

  it("prints the OpenAPI document", async () => {
    const result = await runCliAsync(["openapi", "--no-storage"], { SERVICE_DATA_DIR: dataDir() });
    expect(result.status).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document.openapi).toBe("3.1.0");
    expect(document["x-service-durable-storage"]).toBe(false);
    expect(document.paths["/api/v1/admin/ingestion/runs"].post["x-service-required-scope"]).toBe("operator");
  });
});
