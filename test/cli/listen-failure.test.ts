import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenFailure } from "../../cli/listen-failure.ts";
import { runCli } from "../support/run-cli.ts";

/** The run's one error line: the last line on stderr, with no stack or system error text before it. */
function failureOf(result: ReturnType<typeof runCli>) {
  const lines = result.stderr.trimEnd().split("\n");
  return {
    status: result.status,
    line: lines.at(-1),
    stack: lines.filter((line) => /^\s+at |EADDR|EACCES/.test(line)),
  };
}

describe("a listener that cannot start", () => {
  let held: Server;
  let port: number;
  // One data directory for every start, so the place index (built at a first start) is built once.
  const dataDir = mkdtempSync(join(tmpdir(), "listen-failure-"));

  beforeAll(async () => {
    held = createServer().listen(0, "127.0.0.1");
    await once(held, "listening");
    port = (held.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => held.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serve: a port in use is one plain line naming the port, the address and the flag, exit code 1", () => {
    expect(failureOf(runCli(["serve", "--port", String(port)], { SERVICE_DATA_DIR: dataDir }))).toEqual({
      status: 1,
      line: `error: port ${port} is already in use on 127.0.0.1: pick another with --port`,
      stack: [],
    });
  }, 60_000);

  it("serve: a port or address set by SERVICE_PORT or SERVICE_HOST names that variable, not the flag", () => {
    expect(failureOf(runCli(["serve"], { SERVICE_DATA_DIR: dataDir, SERVICE_PORT: String(port) }))).toEqual({
      status: 1,
      line: `error: port ${port} is already in use on 127.0.0.1: pick another with SERVICE_PORT`,
      stack: [],
    });
    expect(
      failureOf(runCli(["serve", "--port", "0"], { SERVICE_DATA_DIR: dataDir, SERVICE_HOST: "192.0.2.1" })),
    ).toEqual({
      status: 1,
      line: "error: cannot listen on 192.0.2.1: not an address of this machine: pick another with SERVICE_HOST",
      stack: [],
    });
  }, 60_000);

  it("serve: the metrics port in use names SERVICE_METRICS_PORT", () => {
    expect(
      failureOf(runCli(["serve", "--port", "0"], { SERVICE_DATA_DIR: dataDir, SERVICE_METRICS_PORT: String(port) })),
    ).toEqual({
      status: 1,
      line: `error: port ${port} is already in use on 127.0.0.1: pick another with SERVICE_METRICS_PORT`,
      stack: [],
    });
  }, 60_000);

  it("serve: an address that is not this machine's is said so", () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of a machine.
    expect(failureOf(runCli(["serve", "--port", "0", "--host", "192.0.2.1"], { SERVICE_DATA_DIR: dataDir }))).toEqual({
      status: 1,
      line: "error: cannot listen on 192.0.2.1: not an address of this machine: pick another with --host",
      stack: [],
    });
  }, 60_000);

  it("demo-met: a port in use is said the same way", () => {
    expect(failureOf(runCli(["demo-met", "--port", String(port)]))).toEqual({
      status: 1,
      line: `error: port ${port} is already in use on 127.0.0.1: pick another with --port`,
      stack: [],
    });
  });

  // A privileged port cannot be refused to a test that runs as root (CI containers do): the wording is checked here.
  it("a privileged port names the port and the setting, a host name that does not resolve is said so; an error of another kind is passed on as it came", () => {
    const failed = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
    const listener = { port: 80, host: "0.0.0.0", portSetting: "--port", hostSetting: "--host" };
    expect((listenFailure(failed("EACCES"), listener) as Error).message).toBe(
      "port 80 on 0.0.0.0 needs privileges this process lacks (ports below 1024 usually do): pick another with --port",
    );
    const unresolved = { ...listener, host: "not..a..host" };
    expect((listenFailure(failed("ENOTFOUND"), unresolved) as Error).message).toBe(
      "cannot listen on not..a..host: no address is known by that name: pick another with --host",
    );
    const other = failed("EMFILE");
    expect(listenFailure(other, listener)).toBe(other);
  });
});
