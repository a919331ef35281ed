/** The soak run's verdict: its assertions, the tables a person reads, and bench/results/soak-latest.json. */
import type { MetFaultKind } from "../../cli/demo/met-standin-faults.ts";
import { type Check, type MachineFacts, printChecks, printTable, writeResults } from "../service-benchmark/report.ts";
import type { TallyReport } from "./answer-tally.ts";
import type { GenerationReport } from "./index-generations.ts";
import type { IngestRun } from "./ingest-schedule.ts";
import { type MemorySample, type MemoryVerdict, printMemoryCurve } from "./memory-curve.ts";

export interface SoakOutcome {
  startedAt: string;
  finishedAt: string;
  elapsedMs: number;
  machine: MachineFacts;
  settings: Record<string, unknown>;
  tally: TallyReport;
  generations: GenerationReport;
  ingestion: IngestRun[];
  memory: { samples: MemorySample[]; verdict: MemoryVerdict };
  standin: { requests: number; faults: Record<MetFaultKind, number> };
}

const none = (count: number) => `${count}`;

/** Every assertion of the run; any one with pass false fails it. */
export function soakChecks(outcome: SoakOutcome): Check[] {
  const { tally, generations, ingestion, memory, standin } = outcome;
  const problem = (kind: keyof TallyReport["problems"]) => tally.problems[kind].count;
  const published = ingestion.filter((run) => run.ok && run.published).length;
  const faultKindsUnserved = Object.entries(standin.faults)
    .filter(([, count]) => count === 0)
    .map(([kind]) => kind);
  return [
    {
      name: "5xx other than documented upstream failures",
      value: none(problem("unexpected-5xx")),
      target: "0",
      pass: problem("unexpected-5xx") === 0,
    },
    {
      name: "published-file routes: answers not 200 or not like the baseline",
      value: none(problem("published-file-answer")),
      target: "0",
      pass: problem("published-file-answer") === 0,
    },
    {
      name: "bodies breaking their JSON Schema or X-Request-Id",
      value: none(problem("contract")),
      target: "0",
      pass: problem("contract") === 0,
    },
    {
      name: "statuses the mix never provokes (3xx, 4xx)",
      value: none(problem("unexpected-status")),
      target: "0",
      pass: problem("unexpected-status") === 0,
    },
    {
      name: "transport errors and client time-outs (15 s)",
      value: none(problem("transport-error")),
      target: "0",
      pass: problem("transport-error") === 0,
    },
    {
      name: "ingestion runs under load that published a new index",
      value: `${published} of ${ingestion.length}`,
      target: "all, at least 1",
      pass: ingestion.length > 0 && published === ingestion.length,
    },
    {
      name: "index generations seen in answers",
      value: `${generations.seen.length}`,
      target: `${published + 1} (the first + one per run)`,
      pass: generations.seen.length === published + 1,
    },
    {
      name: "answers older than one already answered",
      value: none(generations.regressions),
      target: "0",
      pass: generations.regressions === 0,
    },
    {
      name: "resident memory flat after warm-up",
      value: memory.verdict.reason,
      target: `<= +${(memory.verdict.maxGrowth * 100).toFixed(0)} %`,
      pass: memory.verdict.flat,
    },
    {
      name: "every stand-in fault kind served",
      value: faultKindsUnserved.length === 0 ? "all" : `never: ${faultKindsUnserved.join(", ")}`,
      target: "all",
      pass: faultKindsUnserved.length === 0,
    },
  ];
}

export function printSoakReport(outcome: SoakOutcome, checks: readonly Check[]): void {
  const { tally } = outcome;
  console.log(`\nAnswers by route (${tally.requests} requests)`);
  printTable(
    ["route", "requests", "mean", "p50", "p99", "max", "outcomes"],
    tally.routes.map((route) => [
      route.route,
      String(route.requests),
      `${route.meanMs} ms`,
      `${route.p50Ms} ms`,
      `${route.p99Ms} ms`,
      `${route.maxMs} ms`,
      Object.entries(route.outcomes)
        .map(([name, count]) => `${name}: ${count}`)
        .join(", "),
    ]),
  );
  console.log("\nEvery status and code");
  printTable(
    ["outcome", "answers"],
    Object.entries(tally.outcomes).map(([name, count]) => [name, String(count)]),
  );

  console.log(
    `\nMET stand-in: ${outcome.standin.requests} requests, faults served ${JSON.stringify(outcome.standin.faults)}`,
  );
  console.log("\nIngestion under load");
  printTable(
    ["at", "took", "result", "index", "summary"],
    outcome.ingestion.map((run) => [
      `${run.startedAtSeconds.toFixed(0)} s`,
      `${(run.elapsedMs / 1000).toFixed(2)} s`,
      run.ok ? "ok" : "FAILED",
      run.published ? `new (inode ${run.inodeBefore} -> ${run.inodeAfter})` : "NOT replaced",
      run.summary,
    ]),
  );
  console.log("\nIndex generations in answers (meta.lastIngestedAt)");
  printTable(
    ["lastIngestedAt", "answers", "first seen at"],
    outcome.generations.seen.map((generation) => [
      generation.lastIngestedAt,
      String(generation.answers),
      `${generation.firstSeenAtSeconds} s`,
    ]),
  );

  printMemoryCurve(outcome.memory.samples, outcome.memory.verdict.warmUpSeconds);
  console.log(
    `memory verdict: ${outcome.memory.verdict.flat ? "FLAT" : "NOT FLAT"} (${outcome.memory.verdict.reason}; peak ${outcome.memory.verdict.peakMb.toFixed(1)} MB)`,
  );

  for (const [kind, { count, examples }] of Object.entries(tally.problems)) {
    if (count > 0) console.log(`\n${kind}: ${count}, first ones:\n  ${examples.join("\n  ")}`);
  }
  if (outcome.generations.regressionExamples.length > 0)
    console.log(`\ngeneration regressions:\n  ${outcome.generations.regressionExamples.join("\n  ")}`);
  printChecks("Soak assertions", checks);
}

export function writeSoakResults(outcome: SoakOutcome, checks: readonly Check[]): string {
  return writeResults(
    { ...outcome, checks, passed: checks.every((check) => check.pass !== false) },
    "soak-latest.json",
  );
}
