import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { serveOptionsFrom, serviceConfigFrom } from "../../cli/config.ts";
import { runCli } from "../support/run-cli.ts";

const SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));
const tempDir = () => mkdtempSync(join(tmpdir(), "empty-variables-"));

/** `SERVICE_X=` (a template or shell variable left blank) counts as unset for every variable, as docs/configuration.md says. */
describe("an empty SERVICE_* variable", () => {
  it("SERVICE_KEYS_FILE: keys go to the data directory's keys.json, not the current directory", () => {
    const cwd = tempDir();
    const data = tempDir();
    const result = runCli(
      ["keys", "create", "--scopes", "operator"],
      { SERVICE_KEYS_FILE: "", SERVICE_DATA_DIR: data },
      { cwd },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(data)).toEqual(["keys.json"]);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("SERVICE_ENV, SERVICE_HOST and SERVICE_METRICS_HOST: their defaults, as the server resolves them", () => {
    const data = tempDir();
    const config = serviceConfigFrom(
      {
        SERVICE_DATA_DIR: data,
        SERVICE_KEYS_FILE: "",
        SERVICE_ENV: "",
        SERVICE_METRICS_PORT: "0",
        SERVICE_METRICS_HOST: "",
      },
      {},
    );
    expect(config.keysFile).toBe(join(data, "keys.json"));
    expect(config.environment).toBe("development");
    expect(config.metricsListener).toEqual({ port: 0, host: "127.0.0.1" });
    expect(serveOptionsFrom({ SERVICE_HOST: "", SERVICE_PORT: "" }, {})).toEqual({
      port: 3000,
      host: "127.0.0.1",
      portSetting: "--port",
      hostSetting: "--host",
    });
  });

  it("SERVICE_LOG_FORMAT: ingest reports in text", () => {
    const result = runCli(
      ["ingest", "--from-archive", SAMPLES_DIR, "--source", "central-bank-meetings-calendar", "--data-dir", tempDir()],
      { SERVICE_LOG_FORMAT: "" },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("central-bank-meetings-calendar: replaying");
    expect(result.stderr).not.toContain('"level"');
  }, 60_000);

  it("holding only spaces counts as unset too: SERVICE_DATA_DIR=' ' is ./var, not a folder named ' '", () => {
    const cwd = tempDir();
    const result = runCli(["registry"], { SERVICE_DATA_DIR: " ", SERVICE_KEYS_FILE: "\t" }, { cwd });
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual(["var"]);
    expect(readdirSync(join(cwd, "var"))).toContain("registry.json");
  });

  it("an empty --env flag is named as the flag, like every other empty flag", () => {
    const result = runCli(["keys", "create", "--scopes", "operator", "--env", ""], { SERVICE_DATA_DIR: tempDir() });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe("configuration error: --env must not be empty\n(run with --help for usage)\n");
  });
});
