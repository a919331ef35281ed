import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../../server/http/rate-limit.ts";

const WINDOW_START = Date.UTC(2026, 10, 23, 12, 0, 0);

describe("the rate limiter", () => {
  it("counts each route and client apart, with the allowance of its kind", () => {
    const consume = createRateLimiter({ windowSeconds: 60, publicPerWindow: 2, credentialedPerWindow: 3 });
    expect(consume("a", "192.0.2.1", false, WINDOW_START)).toMatchObject({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetSeconds: 60,
    });
    expect(consume("a", "192.0.2.1", false, WINDOW_START + 1).remaining).toBe(0);
    expect(consume("a", "192.0.2.1", false, WINDOW_START + 2)).toMatchObject({ allowed: false, remaining: 0 });
    expect(consume("b", "192.0.2.1", false, WINDOW_START + 3)).toMatchObject({ allowed: true, remaining: 1 });
    expect(consume("a", "192.0.2.2", false, WINDOW_START + 4)).toMatchObject({ allowed: true, remaining: 1 });
    expect(consume("a", "0123456789abcdef", true, WINDOW_START + 5)).toMatchObject({
      allowed: true,
      limit: 3,
      remaining: 2,
    });
  });

  it("never counts a key and an address of the same text together", () => {
    const consume = createRateLimiter({ windowSeconds: 60, publicPerWindow: 1, credentialedPerWindow: 1 });
    expect(consume("a", "unknown", false, WINDOW_START).allowed).toBe(true);
    expect(consume("a", "unknown", true, WINDOW_START).allowed).toBe(true);
    expect(consume("a", "unknown", true, WINDOW_START).allowed).toBe(false);
  });

  it("starts every client afresh when the window ends, and says when it ends", () => {
    const consume = createRateLimiter({ windowSeconds: 60, publicPerWindow: 1, credentialedPerWindow: 1 });
    expect(consume("a", "192.0.2.1", false, WINDOW_START + 59_500)).toMatchObject({ allowed: true, resetSeconds: 1 });
    expect(consume("a", "192.0.2.1", false, WINDOW_START + 59_900).allowed).toBe(false);
    expect(consume("a", "192.0.2.1", false, WINDOW_START + 60_000)).toMatchObject({ allowed: true, resetSeconds: 60 });
  });
});
