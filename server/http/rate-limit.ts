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
 * Windows are aligned to multiples of the window length, so the counters are dropped as a whole
 * when a window ends and cannot grow beyond one window's clients.
 */
export function createRateLimiter(config: RateLimitConfig) {
  const windowMs = config.windowSeconds * 1000;
  let currentWindow = -1;
  let counts = new Map<string, ClientCounts>();

  /**
   * `client` is the key id of a credentialed request, else the client's address. Counted in maps by route and
   * client rather than under one joined text, which would be a new text to hash for every request.
   */
  return function consume(routeName: string, client: string, credentialed: boolean, now: number): RateLimitDecision {
    const window = Math.floor(now / windowMs);
    if (window !== currentWindow) {
      currentWindow = window;
      counts = new Map();
    }
    let routeCounts = counts.get(routeName);
    if (!routeCounts) {
      routeCounts = { byAddress: new Map(), byKey: new Map() };
      counts.set(routeName, routeCounts);
    }
    const clients = credentialed ? routeCounts.byKey : routeCounts.byAddress;
    const limit = credentialed ? config.credentialedPerWindow : config.publicPerWindow;
    const used = (clients.get(client) ?? 0) + 1;
    clients.set(client, used);
    return {
      allowed: used <= limit,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000)),
    };
  };
}

/** One route's requests in the current window: by client address, and by key id for credentialed requests. */
interface ClientCounts {
  byAddress: Map<string, number>;
  byKey: Map<string, number>;
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The decision's `RateLimit-*` headers, set on an answer's headers. */
export function setRateLimitHeaders(decision: RateLimitDecision, headers: Record<string, string>): void {
  headers["ratelimit-limit"] = String(decision.limit);
  headers["ratelimit-remaining"] = String(decision.remaining);
  headers["ratelimit-reset"] = String(decision.resetSeconds);
}
