/** Recent outcomes of requests to the weather provider, for the status route. */
export interface UpstreamHealthSnapshot {
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  /** Attempts and failures within the recent window. */
  recentAttempts: number;
  recentFailures: number;
}

export interface UpstreamHealth {
  recordAttempt(): void;
  recordSuccess(): void;
  recordFailure(): void;
  snapshot(): UpstreamHealthSnapshot;
}

export const RECENT_WINDOW_MS = 15 * 60_000;

export function createUpstreamHealth(options: { now: () => number; recentWindowMs?: number }): UpstreamHealth {
  const recentWindowMs = options.recentWindowMs ?? RECENT_WINDOW_MS;
  const attemptTimes: number[] = [];
  const failureTimes: number[] = [];
  let lastAttempt: number | null = null;
  let lastSuccess: number | null = null;
  let lastFailure: number | null = null;

  function forgetOld(times: number[]): void {
    const horizon = options.now() - recentWindowMs;
    while (times.length > 0 && times[0]! <= horizon) times.shift();
  }

  const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

  return {
    recordAttempt() {
      lastAttempt = options.now();
      forgetOld(attemptTimes);
      attemptTimes.push(lastAttempt);
    },
    recordSuccess() {
      lastSuccess = options.now();
    },
    recordFailure() {
      lastFailure = options.now();
      forgetOld(failureTimes);
      failureTimes.push(lastFailure);
    },
    snapshot() {
      forgetOld(attemptTimes);
      forgetOld(failureTimes);
      return {
        lastAttemptAt: iso(lastAttempt),
        lastSuccessAt: iso(lastSuccess),
        lastFailureAt: iso(lastFailure),
        recentAttempts: attemptTimes.length,
        recentFailures: failureTimes.length,
      };
    },
  };
}
