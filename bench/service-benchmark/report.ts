import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import type { RouteResult } from "./compare-route.ts";

export interface MachineFacts {
  cpuModel: string;
  cores: number;
  memoryMb: number;
  node: string;
  platform: string;
  kernel: string;
  /** 1-minute load average: above the core count, something else was competing for the CPU and the numbers are noisy. */
  loadAverage1m: number;
}

export function machineFacts(): MachineFacts {
  const cores = cpus();
  return {
    cpuModel: cores[0]?.model.trim() ?? "unknown",
    cores: cores.length,
    memoryMb: Math.round(totalmem() / 1024 / 1024),
    node: process.version,
    platform: process.platform,
    kernel: release(),
    loadAverage1m: loadavg()[0]!,
  };
}

/** One labelled check outside the route table: a measured value against its target. */
export interface Check {
  name: string;
  value: string;
  target: string;
  pass: boolean | null;
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

export function printRouteTable(title: string, results: readonly RouteResult[]): void {
  console.log(`\n${title}`);
  const header = [
    "route",
    "service req/s",
    "p50",
    "p99",
    "err/non2xx",
    "h3 req/s",
    "vs h3",
    "ceiling req/s",
    "p50",
    "p99",
    "ratio",
    "target",
    "result",
  ];
  const rows = results.map((result) => [
    result.route,
    fixed(result.service.requestsPerSecond),
    `${fixed(result.service.p50Ms, 1)} ms`,
    `${fixed(result.service.p99Ms, 1)} ms`,
    `${result.service.errors}/${result.service.non2xx}`,
    fixed(result.h3.requestsPerSecond),
    fixed(result.h3Ratio, 2),
    fixed(result.ceiling.requestsPerSecond),
    `${fixed(result.ceiling.p50Ms, 1)} ms`,
    `${fixed(result.ceiling.p99Ms, 1)} ms`,
    fixed(result.ratio, 2),
    `>=${result.targets.minRatio}, p99<${result.targets.maxP99Ms}ms`,
    result.pass ? "pass" : `FAIL (${result.failures.join("; ")})`,
  ]);
  printTable(header, rows);
}

export function printChecks(title: string, checks: readonly Check[]): void {
  console.log(`\n${title}`);
  printTable(
    ["check", "value", "target", "result"],
    checks.map((check) => [
      check.name,
      check.value,
      check.target,
      check.pass === null ? "-" : check.pass ? "pass" : "FAIL",
    ]),
  );
}

export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(line(widths.map((width) => "-".repeat(width))));
  for (const row of rows) console.log(line(row));
}

/** Written beside the .gitkeep in bench/results/, where the results of a run can be committed and compared. */
export function writeResults(results: object, fileName = "latest.json"): string {
  const folder = new URL("../results/", import.meta.url);
  mkdirSync(folder, { recursive: true });
  const file = new URL(fileName, folder);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file.pathname;
}
