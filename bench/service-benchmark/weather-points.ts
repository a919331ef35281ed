/** Weather cache economy: many distinct points (memory stays bounded) and one cold point asked by many at once. */

export interface WarmUpResult {
  points: number;
  concurrency: number;
  elapsedMs: number;
  /** Answers other than 200, by status ("error" when no answer came). */
  failures: Record<string, number>;
}

/**
 * The i-th of many distinct 2-decimal points, in a block (lat 20.00.., lon -100.00..) that no measured route asks for,
 * so every one is a cache miss and an upstream call.
 */
function distinctPoint(index: number): { lat: string; lon: string } {
  return { lat: (20 + Math.floor(index / 200) / 100).toFixed(2), lon: (-100 + (index % 200) / 100).toFixed(2) };
}

/** Asks the public current route for `points` distinct points, at most `concurrency` at a time. */
export async function warmDistinctPoints(
  serviceUrl: string,
  points: number,
  concurrency: number,
  perRequestTimeoutMs = 60_000,
): Promise<WarmUpResult> {
  const failures: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  async function askInTurn(): Promise<void> {
    while (next < points) {
      const { lat, lon } = distinctPoint(next++);
      const status = await statusOf(
        `${serviceUrl}/api/public/v1/weather/current?lat=${lat}&lon=${lon}`,
        perRequestTimeoutMs,
      );
      if (status !== "200") failures[status] = (failures[status] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, points) }, askInTurn));
  return { points, concurrency, elapsedMs: performance.now() - started, failures };
}

export interface StampedeResult {
  point: { lat: string; lon: string };
  requests: number;
  /** What the stand-in MET received while they were answered: one shared call is the target. */
  upstreamRequests: number;
  answered200: number;
  /** Answers saying the value was not served from the cache (`meta.cached: false`). */
  answeredUncached: number;
  elapsedMs: number;
  pass: boolean;
}

/** Fires `requests` requests at once at a point nobody has asked for, and counts what reached MET. */
export async function stampedeColdPoint(
  serviceUrl: string,
  upstreamRequests: () => number,
  requests: number,
): Promise<StampedeResult> {
  // Sydney: far from the warm-up block and the measured points, so it is cold however the run went before.
  const point = { lat: "-33.87", lon: "151.21" };
  const url = `${serviceUrl}/api/public/v1/weather/current?lat=${point.lat}&lon=${point.lon}`;
  const upstreamBefore = upstreamRequests();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: requests }, () => answerOf(url, 60_000)));
  const elapsedMs = performance.now() - started;
  const upstream = upstreamRequests() - upstreamBefore;
  const answered200 = answers.filter((answer) => answer.status === 200).length;
  const answeredUncached = answers.filter((answer) => answer.cached === false).length;
  return {
    point,
    requests,
    upstreamRequests: upstream,
    answered200,
    answeredUncached,
    elapsedMs,
    pass: upstream === 1 && answered200 === requests,
  };
}

async function statusOf(url: string, timeoutMs: number): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return String(response.status);
  } catch {
    return "error";
  }
}

async function answerOf(url: string, timeoutMs: number): Promise<{ status: number; cached: unknown }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.json()) as { meta?: { cached?: unknown } };
    return { status: response.status, cached: body.meta?.cached };
  } catch {
    return { status: 0, cached: undefined };
  }
}
