import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVING_NODE_FLAGS, SERVING_NODE_OPTIONS } from "../../bench/serving-node-options.ts";

const deployFile = (path: string) => readFileSync(new URL(`../../deploy/${path}`, import.meta.url), "utf8");

/**
 * The young generation's committed bytes after a loop that keeps some of what it allocates alive across collections.
 */
function newSpaceBytesUnder(nodeOptions: string): number {
  const program = `
    let kept = [];
    for (let i = 0; i < 3e6; i++) { kept.push({ i, text: "x" + i }); if (kept.length > 20000) kept = []; }
    const space = require("node:v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    process.stdout.write(String(space.space_size));`;
  return Number(
    execFileSync(process.execPath, ["-e", program], {
      env: { ...process.env, NODE_OPTIONS: nodeOptions },
      encoding: "utf8",
    }),
  );
}

/** The old generation's peak bytes in use while objects that outlive young collections keep dying (as requests' do). */
function oldSpacePeakBytesWith(flags: readonly string[]): number {
  const program = `
    const v8 = require("node:v8");
    const alive = [];
    for (let i = 0; i < 300000; i++) alive.push({ i, text: "x" + i });
    let held = [];
    let peak = 0;
    for (let round = 0; round < 400; round++) {
      held.push(Array.from({ length: 20000 }, (_, i) => ({ i, round })));
      if (held.length > 4) held.shift();
      const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space");
      peak = Math.max(peak, space.space_used_size);
    }
    process.stdout.write(String(alive.length && peak));`;
  return Number(
    execFileSync(process.execPath, [...flags, "-e", program], {
      env: { ...process.env, NODE_OPTIONS: SERVING_NODE_OPTIONS },
      encoding: "utf8",
    }),
  );
}

describe("the Node options the server is started with", () => {
  it("are the ones the systemd unit and the container image start it with", () => {
    expect(deployFile("systemd/weather-economics.service")).toMatch(
      new RegExp(`^Environment=NODE_OPTIONS=${SERVING_NODE_OPTIONS}$`, "m"),
    );
    expect(deployFile("container/Containerfile")).toMatch(
      new RegExp(`^\\s+NODE_OPTIONS=${SERVING_NODE_OPTIONS}$`, "m"),
    );
  });

  it("put V8's flags on node's command line where the systemd unit and the container image start the server", () => {
    const flags = SERVING_NODE_FLAGS.join(" ");
    expect(deployFile("systemd/weather-economics.service")).toMatch(
      new RegExp(`^ExecStart=/usr/bin/node ${flags} /opt/weather-economics/cli/bin\\.js serve$`, "m"),
    );
    const entrypoint = JSON.stringify(["node", ...SERVING_NODE_FLAGS, "cli/bin.js"]).replaceAll(",", ", ");
    expect(deployFile("container/Containerfile")).toContain(`ENTRYPOINT ${entrypoint}\nCMD ["serve"]`);
  });

  it("are accepted by node on its command line, though not in NODE_OPTIONS", () => {
    const run = (args: string[], nodeOptions: string) =>
      spawnSync(process.execPath, [...args, "-e", "0"], {
        env: { ...process.env, NODE_OPTIONS: nodeOptions },
        encoding: "utf8",
      });
    expect(run([...SERVING_NODE_FLAGS], SERVING_NODE_OPTIONS).status).toBe(0);
    for (const flag of SERVING_NODE_FLAGS) expect(run([], flag).stderr).toContain("is not allowed in NODE_OPTIONS");
  });

  it("keep the old generation's peak under half of what it reaches when V8 picks how far it grows", () => {
    const withFlags = oldSpacePeakBytesWith(SERVING_NODE_FLAGS);
    const withoutGrowingPercent = oldSpacePeakBytesWith(
      SERVING_NODE_FLAGS.filter((flag) => !flag.startsWith("--heap-growing-percent")),
    );
    expect(withFlags).toBeLessThan(withoutGrowingPercent / 2);
  });

  it("keep V8's young generation at a quarter of the size it grows to by default", () => {
    const capped = newSpaceBytesUnder(SERVING_NODE_OPTIONS);
    const uncapped = newSpaceBytesUnder("");
    expect(uncapped).toBe(32 * 1024 * 1024);
    expect(capped).toBeLessThanOrEqual(uncapped / 4);
  });
});
