import { WeatherUpstreamError } from "./upstream-error.ts";
import { DEFAULT_WEATHER_SETTINGS } from "./weather-settings.ts";

/** Longest a request waits for a slot before it is answered from the cache, or refused. */
const DEFAULT_MAX_WAIT_MS = 3000;

/** How often a caller looks again while every slot is held by a request still running. */
const RUNNING_POLL_MS = 25;

export interface RateGate {
  /**
   * Resolves with the slot's release, called when the request has finished however it ended. Callers are served in
   * arrival order; one that would wait past the bound is refused at once (UPSTREAM_UNAVAILABLE with a retry time).
   */
  acquire(): Promise<() => void>;
  /** MET's 429 with Retry-After: nothing starts for `ms`, then one probe alone until it ends without a new pause. */
  pauseFor(ms: number): void;
}

export interface RateGateOptions {
  maxRequests?: number;
  windowMs?: number;
  maxWaitMs?: number;
  /** A monotonic clock in production (performance.now): a wall clock stepped back must not hold slots for hours. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * One gate per process, since MET's limit is per application. A request holds its slot from its start until
 * `windowMs` after it finished: its arrival at MET lies somewhere in between, so counting starts alone would let more
 * than the allowance arrive within one window.
 */
export function createRateGate(options: RateGateOptions): RateGate {
  // MET's terms: over 20 requests per second per application (all clients together) is throttled with 429.
  const maxRequests = options.maxRequests ?? DEFAULT_WEATHER_SETTINGS.maxRequestsPerSecond;
  const windowMs = options.windowMs ?? 1000;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  /** Per slot: null while its request runs, else when it finished. */
  const slots: Array<{ finishedAt: number | null }> = [];
  let pausedUntil = 0;
  /** After a pause, until a request comes back without a new one: the allowance is one request. */
  let probing = false;
  let queueTail: Promise<unknown> = Promise.resolve();

  /** When a slot frees next, given the clock; Infinity when every slot is held by a running request. */
  function nextFreeAt(now: number): number {
    for (let i = slots.length - 1; i >= 0; i--) {
      const finishedAt = slots[i]!.finishedAt;
      if (finishedAt !== null && finishedAt + windowMs <= now) slots.splice(i, 1);
    }
    const allowance = probing ? 1 : maxRequests;
    if (slots.length < allowance) return Math.max(now, pausedUntil);
    const finished = slots.map((slot) => slot.finishedAt).filter((time): time is number => time !== null);
    // A slot frees when enough finished ones have left the window to bring the count under the allowance.
    const mustLeave = slots.length - allowance + 1;
    if (finished.length < mustLeave) return Number.POSITIVE_INFINITY;
    finished.sort((a, b) => a - b);
    return Math.max(finished[mustLeave - 1]! + windowMs, pausedUntil);
  }

  async function waitForSlot(deadline: number): Promise<() => void> {
    for (;;) {
      const now = options.now();
      const freeAt = nextFreeAt(now);
      if (freeAt <= now) {
        const slot = { finishedAt: null as number | null };
        slots.push(slot);
        const probe = probing;
        return () => {
          if (slot.finishedAt !== null) return;
          slot.finishedAt = options.now();
          // A probe that failed with a new Retry-After has paused the gate again before its release.
          if (probe && slot.finishedAt >= pausedUntil) probing = false;
        };
      }
      // Known to come too late, or the wait is over: refuse now rather than queue without bound.
      if ((Number.isFinite(freeAt) && freeAt > deadline) || now >= deadline) {
        const retryAfterMs = Number.isFinite(freeAt) ? freeAt - now : windowMs;
        throw new WeatherUpstreamError(
          "UPSTREAM_UNAVAILABLE",
          now < pausedUntil || probing ? "MET asked us to back off" : "MET's request allowance is booked",
          retryAfterMs,
        );
      }
      // While every slot is held by a running request, when one frees is unknown: look again shortly.
      await options.sleep(Math.min(freeAt - now, RUNNING_POLL_MS, deadline - now));
    }
  }

  return {
    acquire() {
      const deadline = options.now() + maxWaitMs;
      // Chaining every caller on one promise keeps the queue first-come first-served.
      const turn = queueTail.then(() => waitForSlot(deadline));
      queueTail = turn.catch(() => undefined);
      return turn;
    },
    pauseFor(ms) {
      pausedUntil = Math.max(pausedUntil, options.now() + ms);
      probing = true;
    },
  };
}
