import { describe, expect, it } from "vitest";
import { createAnswerCache } from "../../server/http/answer-cache.ts";
import type { HeaderReader } from "../../server/http/api-request.ts";
import { createCompressor } from "../../server/http/compression.ts";
import { createPipeline } from "../../server/http/pipeline.ts";
import { createRateLimiter } from "../../server/http/rate-limit.ts";
import { createMetrics } from "../../server/observability/metrics.ts";
import { capturedLog } from "../support/captured-log.ts";

/** A pipeline with no routes, one public request per window, and its log as parsed lines. */
function refusingPipeline() {
  const { logger, lines: log } = capturedLog();
  const pipeline = createPipeline([], {
    environment: "test",
    corsOrigins: ["https://app.example.com"],
    clock: { now: () => Date.parse("2026-11-21T12:00:00Z") },
    keyLookup: () => undefined,
    rateLimiter: createRateLimiter({ windowSeconds: 60, publicPerWindow: 1, credentialedPerWindow: 1 }),
    durableStorage: true,
    trustedProxies: new Set(),
    answers: createAnswerCache(),
    compressor: createCompressor(),
    logger,
    metrics: createMetrics(),
  });
  return { pipeline, log };
}

const preflightHeaders: HeaderReader = {
  get: (name) =>
    ({ origin: "https://app.example.com", "access-control-request-method": "GET" })[name as "origin"] ?? null,
  has: (name) => name === "origin" || name === "access-control-request-method",
};

describe("refusals (answers no route gives)", () => {
  it("answer an unmatched preflight 204, but never take an unreadable request for one", async () => {
    const { pipeline } = refusingPipeline();
    const request = { method: "OPTIONS", pathname: "/nowhere", search: "", headers: preflightHeaders };
    expect((await pipeline.answer({ ...request, peerAddress: "192.0.2.1" })).status).toBe(204);
    const unreadable = pipeline.answerUnreadable({ ...request, peerAddress: "192.0.2.2" }, "BAD_REQUEST");
    expect(unreadable.status).toBe(400);
    expect(unreadable.headers["access-control-allow-origin"]).toBe("https://app.example.com");
  });

  it("count unreadable requests against the client's allowance, log an INTERNAL one under its id even when refused", () => {
    const { pipeline, log } = refusingPipeline();
    const peer = { peerAddress: "192.0.2.3", method: "GET" };
    expect(pipeline.answerUnreadable(peer, "BAD_REQUEST").status).toBe(400);
    const limited = pipeline.answerUnreadable(peer, "INTERNAL", new Error("h3 failed"));
    expect(limited.status).toBe(429);
    const requestId = limited.headers["x-request-id"];
    expect(log().filter((line) => line.msg === "internal error before routing")).toEqual([
      expect.objectContaining({ level: "error", requestId, err: expect.objectContaining({ message: "h3 failed" }) }),
    ]);
    expect(log().find((line) => line.requestId === requestId && line.msg === "request")).toMatchObject({
      method: "GET",
      path: "",
      query: "",
      client: "192.0.2.3",
      route: "unmatched",
      status: 429,
    });
  });

  it("answer a failure INTERNAL, never counted against an allowance, with an unknown client", () => {
    const { pipeline, log } = refusingPipeline();
    const answers = [1, 2].map(() => pipeline.answerFailure(new Error("could not write")));
    expect(answers.map((answer) => answer.status)).toEqual([500, 500]);
    expect(answers[0]!.headers).not.toHaveProperty("ratelimit-limit");
    expect(JSON.parse(String(answers[0]!.body))).toMatchObject({ error: { code: "INTERNAL" } });
    const lines = log().filter((line) => line.msg === "request");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ method: "", path: "", client: "unknown", route: "unmatched", status: 500 });
  });
});
