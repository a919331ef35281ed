/** Recent outcomes of requests to the weather provider, for the status route. */
export interface UpstreamHealthSnapshot {
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  /** Attempts and failures within the recent window. */
  recentAttempts: number;
  recentFailures: number;
}

export const RECENT_WINDOW_MS = 15 * 60_000;

/** Written as they happen (at most MET's rate), so the status route's snapshot per request costs no formatting. */
export function createUpstreamHealth(now: () => number) {
  const attemptTimes: number[] = [];
  const failureTimes: number[] = [];
  let lastAttemptAt: string | null = null;
  let lastSuccessAt: string | null = null;
  let lastFailureAt: string | null = null;

  /** The list without the times past the window, oldest first. */
  function recent(times: number[]): number[] {
    const horizon = now() - RECENT_WINDOW_MS;
    while (times.length > 0 && times[0]! <= horizon) times.shift();
    return times;
  }
  /** The instant, recorded in the list when one is given; its ISO text. */
  function record(times?: number[]): string {
    const at = now();
    if (times) recent(times).push(at);
    return new Date(at).toISOString();
  }

  return {
    recordAttempt: () => {
      lastAttemptAt = record(attemptTimes);
    },
    recordSuccess: () => {
      lastSuccessAt = record();
    },
    recordFailure: () => {
      lastFailureAt = record(failureTimes);
    },
    snapshot: (): UpstreamHealthSnapshot => ({
      lastAttemptAt,
      lastSuccessAt,
      lastFailureAt,
      recentAttempts: recent(attemptTimes).length,
      recentFailures: recent(failureTimes).length,
    }),
  };
}
