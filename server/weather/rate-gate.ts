/** MET's terms: anything over 20 requests per second per application (all clients together) is throttled with 429. */
export const MET_MAX_REQUESTS_PER_SECOND = 20;

export interface RateGate {
  /** Resolves when one more upstream request may start. Callers queue in arrival order; nobody is refused. */
  acquire(): Promise<void>;
}

export interface RateGateOptions {
  maxRequests?: number;
  windowMs?: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * A sliding window over the start times of recent requests: a request may start when fewer than `maxRequests` started
 * in the last `windowMs`. One gate per process, shared by every caller of the provider, since the limit is per application.
 */
export function createRateGate(options: RateGateOptions): RateGate {
  const maxRequests = options.maxRequests ?? MET_MAX_REQUESTS_PER_SECOND;
  const windowMs = options.windowMs ?? 1000;
  const startTimes: number[] = [];
  let queueTail: Promise<void> = Promise.resolve();

  async function waitForSlot(): Promise<void> {
    for (;;) {
      const now = options.now();
      while (startTimes.length > 0 && startTimes[0]! <= now - windowMs) startTimes.shift();
      if (startTimes.length < maxRequests) {
        startTimes.push(now);
        return;
      }
      await options.sleep(startTimes[0]! + windowMs - now);
    }
  }

  return {
    acquire() {
      // Chaining every caller on one promise keeps the queue first-come first-served.
      const turn = queueTail.then(waitForSlot);
      queueTail = turn.catch(() => undefined);
      return turn;
    },
  };
}
