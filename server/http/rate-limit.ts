import type { RateLimitConfig } from "../config.ts";

interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

/**
 * A fixed-window counter per route name and client, in this process only (spec general rule 3). Aligned windows let
 * the counters be dropped as a whole when one ends, so they cannot grow beyond one window's clients.
 */
export function createRateLimiter(config: RateLimitConfig) {
  const windowMs = config.windowSeconds * 1000;
  let currentWindow = -1;
  // By route name, then client (an address, or a key id when credentialed): a joined key would be a text per request.
  let byAddress = new Map<string, Map<string, number>>();
  let byKey = new Map<string, Map<string, number>>();

  return function consume(routeName: string, client: string, credentialed: boolean, now: number): RateLimitDecision {
    const window = Math.floor(now / windowMs);
    if (window !== currentWindow) {
      currentWindow = window;
      byAddress = new Map();
      byKey = new Map();
    }
    const byRoute = credentialed ? byKey : byAddress;
    let clients = byRoute.get(routeName);
    if (!clients) {
      clients = new Map();
      byRoute.set(routeName, clients);
    }
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

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export function setRateLimitHeaders(decision: RateLimitDecision, headers: Record<string, string>): void {
  headers["ratelimit-limit"] = String(decision.limit);
  headers["ratelimit-remaining"] = String(decision.remaining);
  headers["ratelimit-reset"] = String(decision.resetSeconds);
}
