import { captureAnswer } from "./capture.ts";
import type { Ceiling } from "./ceiling.ts";
import type { LoadGenerator, LoadSummary } from "./load-generator.ts";
import { type BenchRoute, TARGETS } from "./routes.ts";

export interface LoadPlan {
  connections: number;
  warmUpSeconds: number;
  /** Service, h3 and ceiling alternate, one round each per pass, so drift (heat, GC, neighbours) hits all alike. */
  rounds: number;
  roundSeconds: number;
}

/**
 * Three short rounds rather than two long ones: on this kind of 2-core VM a side's rate jumps between two levels from
 * one round to the next (the scheduler's placement of server and load generator), and the median of three is one
 * real round, where the median of two is the mean of both levels.
 */
export const DEFAULT_PLAN: LoadPlan = { connections: 32, warmUpSeconds: 0.3, rounds: 3, roundSeconds: 0.6 };

/** The service at or above h3 serving the same bytes, but for this machine's noise between rounds (about 15 %). */
export const MIN_H3_RATIO = 0.85;

/** Medians over the rounds of one side, plus the counts of every round (a single failure anywhere must show). */
export interface SideResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface RouteResult {
  route: string;
  kind: BenchRoute["kind"];
  pathAndQuery: string;
  capturedStatus: number;
  capturedBodyBytes: number;
  service: SideResult;
  /** h3 answering the same bytes from memory. */
  h3: SideResult;
  ceiling: SideResult;
  /** Service over the bare node:http ceiling. */
  ratio: number;
  /** Service over h3 answering the same bytes. */
  h3Ratio: number;
  targets: { minRatio: number; maxP99Ms: number };
  pass: boolean;
  /** Why it failed, in words. */
  failures: string[];
}

export interface RouteTarget {
  serviceUrl: string;
  apiKey: string;
  ceiling: Ceiling;
  load: LoadGenerator;
  plan: LoadPlan;
}

export async function compareRoute(route: BenchRoute, target: RouteTarget): Promise<RouteResult> {
  const headers: Record<string, string> = route.credentialed ? { authorization: `Bearer ${target.apiKey}` } : {};
  const captured = await captureAnswer(target.serviceUrl + route.pathAndQuery, headers);
  await target.ceiling.replay(route.pathAndQuery, captured);

  const { plan, load } = target;
  const loadOn = (base: string, durationSeconds: number) =>
    load.run({ url: base + route.pathAndQuery, headers, connections: plan.connections, durationSeconds });
  const sides = [target.serviceUrl, target.ceiling.h3Url, target.ceiling.url];
  for (const side of sides) await loadOn(side, plan.warmUpSeconds);
  const rounds: LoadSummary[][] = sides.map(() => []);
  for (let round = 0; round < plan.rounds; round++) {
    for (const [i, side] of sides.entries()) rounds[i]!.push(await loadOn(side, plan.roundSeconds));
  }

  const [service, h3, ceiling] = rounds.map(summarise) as [SideResult, SideResult, SideResult];
  const over = (side: SideResult) =>
    side.requestsPerSecond > 0 ? service.requestsPerSecond / side.requestsPerSecond : 0;
  const ratio = over(ceiling);
  const h3Ratio = over(h3);
  const targets = TARGETS[route.kind];
  const failures: string[] = [];
  if (captured.status !== 200) failures.push(`service answered ${captured.status}`);
  if (ratio < targets.minRatio) failures.push(`ratio ${ratio.toFixed(2)} < ${targets.minRatio}`);
  if (h3Ratio < MIN_H3_RATIO) failures.push(`below h3: ${h3Ratio.toFixed(2)} < ${MIN_H3_RATIO}`);
  if (service.p99Ms >= targets.maxP99Ms) failures.push(`p99 ${service.p99Ms} ms >= ${targets.maxP99Ms} ms`);
  if (service.errors > 0 || service.non2xx > 0) failures.push(`${service.errors} errors, ${service.non2xx} non-2xx`);
  return {
    route: route.name,
    kind: route.kind,
    pathAndQuery: route.pathAndQuery,
    capturedStatus: captured.status,
    capturedBodyBytes: captured.body.length,
    service,
    h3,
    ceiling,
    ratio,
    h3Ratio,
    targets,
    pass: failures.length === 0,
    failures,
  };
}

/** Each figure's median over the rounds (the mean of the middle two for an even count); errors summed over all rounds. */
function summarise(rounds: LoadSummary[]): SideResult {
  const sum = (pick: (round: LoadSummary) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  return {
    requestsPerSecond: median(rounds.map((round) => round.requestsPerSecond)),
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
    errors: sum((round) => round.errors),
    non2xx: sum((round) => round.non2xx),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
