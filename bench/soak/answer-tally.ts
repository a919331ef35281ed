/**
 * Counts of everything the soak run received, in memory bounded whatever its length: counters, one latency histogram
 * per route (whole milliseconds) and the first few examples of each problem.
 */
import type { Problem, ProblemKind } from "./answer-checks.ts";

const MAX_LATENCY_MS = 60_000;
const MAX_EXAMPLES = 10;

export interface RouteTally {
  route: string;
  requests: number;
  /** "200", "200 stale", "503 UPSTREAM_UNAVAILABLE", "transport error", … */
  outcomes: Record<string, number>;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface TallyReport {
  requests: number;
  /** Every status with its error code, over all routes. */
  outcomes: Record<string, number>;
  routes: RouteTally[];
  problems: Record<ProblemKind | "transport-error", { count: number; examples: string[] }>;
}

interface RouteCounts {
  requests: number;
  outcomes: Map<string, number>;
  latency: Uint32Array;
  totalMs: number;
  maxMs: number;
}

function percentile(histogram: Uint32Array, total: number, share: number): number {
  const wanted = Math.ceil(total * share);
  let seen = 0;
  for (let ms = 0; ms < histogram.length; ms++) {
    seen += histogram[ms]!;
    if (seen >= wanted) return ms;
  }
  return histogram.length - 1;
}

export function createTally() {
  const routes = new Map<string, RouteCounts>();
  const problems = new Map<ProblemKind | "transport-error", { count: number; examples: string[] }>();
  for (const kind of [
    "unexpected-5xx",
    "published-file-answer",
    "contract",
    "unexpected-status",
    "transport-error",
  ] as const) {
    problems.set(kind, { count: 0, examples: [] });
  }

  function countsOf(route: string): RouteCounts {
    let counts = routes.get(route);
    if (!counts) {
      counts = {
        requests: 0,
        outcomes: new Map(),
        latency: new Uint32Array(MAX_LATENCY_MS + 1),
        totalMs: 0,
        maxMs: 0,
      };
      routes.set(route, counts);
    }
    return counts;
  }

  function addProblem(problem: Problem | { kind: "transport-error"; detail: string }): void {
    const entry = problems.get(problem.kind)!;
    entry.count += 1;
    if (entry.examples.length < MAX_EXAMPLES) entry.examples.push(problem.detail);
  }

  function addOutcome(route: string, outcome: string, elapsedMs: number): void {
    const counts = countsOf(route);
    counts.requests += 1;
    counts.outcomes.set(outcome, (counts.outcomes.get(outcome) ?? 0) + 1);
    const ms = Math.min(MAX_LATENCY_MS, Math.round(elapsedMs));
    counts.latency[ms]! += 1;
    counts.totalMs += elapsedMs;
    counts.maxMs = Math.max(counts.maxMs, elapsedMs);
  }

  return {
    answer(route: string, outcome: string, elapsedMs: number, found: readonly Problem[]): void {
      addOutcome(route, outcome, elapsedMs);
      for (const problem of found) addProblem(problem);
    },
    transportError(route: string, message: string, elapsedMs: number): void {
      addOutcome(route, "transport error", elapsedMs);
      addProblem({ kind: "transport-error", detail: `${route}: ${message}` });
    },
    report(): TallyReport {
      const outcomes: Record<string, number> = {};
      const routeTallies: RouteTally[] = [];
      for (const [route, counts] of routes) {
        for (const [outcome, count] of counts.outcomes) outcomes[outcome] = (outcomes[outcome] ?? 0) + count;
        routeTallies.push({
          route,
          requests: counts.requests,
          outcomes: Object.fromEntries([...counts.outcomes].sort(([a], [b]) => a.localeCompare(b))),
          meanMs: Math.round(counts.totalMs / counts.requests),
          p50Ms: percentile(counts.latency, counts.requests, 0.5),
          p99Ms: percentile(counts.latency, counts.requests, 0.99),
          maxMs: Math.round(counts.maxMs),
        });
      }
      routeTallies.sort((a, b) => a.route.localeCompare(b.route));
      return {
        requests: routeTallies.reduce((sum, route) => sum + route.requests, 0),
        outcomes: Object.fromEntries(Object.entries(outcomes).sort(([a], [b]) => a.localeCompare(b))),
        routes: routeTallies,
        problems: Object.fromEntries(problems) as TallyReport["problems"],
      };
    },
  };
}

export type Tally = ReturnType<typeof createTally>;
