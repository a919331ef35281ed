import type { RateLimitConfig } from "../config.ts";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

/**
 * A fixed-window counter per route name and client, in this process only (spec general rule 3).
 * Windows are aligned to multiples of the window length, so the counter map is dropped as a whole
 * when a window ends and cannot grow beyond one window's clients.
 */
export function createRateLimiter(config: RateLimitConfig) {
  const windowMs = config.windowSeconds * 1000;
  let currentWindow = -1;
  let counts = new Map<string, number>();

  return function consume(routeName: string, client: string, credentialed: boolean, now: number): RateLimitDecision {
    const window = Math.floor(now / windowMs);
    if (window !== currentWindow) {
      currentWindow = window;
      counts = new Map();
    }
    const limit = credentialed ? config.credentialedPerWindow : config.publicPerWindow;
    const key = `${routeName}\u0000${client}`;
    const used = (counts.get(key) ?? 0) + 1;
    counts.set(key, used);
    return {
      allowed: used <= limit,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000)),
    };
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The decision's `RateLimit-*` headers, set on an answer's headers. */
export function setRateLimitHeaders(decision: RateLimitDecision, headers: Record<string, string>): void {
  headers["ratelimit-limit"] = String(decision.limit);
  headers["ratelimit-remaining"] = String(decision.remaining);
  headers["ratelimit-reset"] = String(decision.resetSeconds);
}
