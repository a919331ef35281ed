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

export function createUpstreamHealth(now: () => number) {
  const attemptTimes: number[] = [];
  const failureTimes: number[] = [];
  let lastSuccess: number | null = null;

  /** The list without the times past the window, but for the newest: it says when the last one was. */
  function recent(times: number[]): number[] {
    const horizon = now() - RECENT_WINDOW_MS;
    while (times.length > 1 && times[0]! <= horizon) times.shift();
    return times;
  }
  const iso = (time: number | undefined | null) => (time == null ? null : new Date(time).toISOString());
  const inWindow = (times: number[]) => times.filter((time) => time > now() - RECENT_WINDOW_MS).length;

  return {
    recordAttempt: () => recent(attemptTimes).push(now()),
    recordSuccess: () => {
      lastSuccess = now();
    },
    recordFailure: () => recent(failureTimes).push(now()),
    snapshot: (): UpstreamHealthSnapshot => ({
      lastAttemptAt: iso(recent(attemptTimes).at(-1)),
      lastSuccessAt: iso(lastSuccess),
      lastFailureAt: iso(recent(failureTimes).at(-1)),
      recentAttempts: inWindow(attemptTimes),
      recentFailures: inWindow(failureTimes),
    }),
  };
}
