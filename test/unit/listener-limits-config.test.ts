import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serviceConfigFrom } from "../../cli/config.ts";
import { ConfigError } from "../../cli/env-values.ts";

// Only read: no folder is created there.
const configFrom = (env: Record<string, string>) =>
  serviceConfigFrom({ SERVICE_DATA_DIR: join(tmpdir(), "listener-limits-never-created"), ...env }, {});

/** The listener's limits on its clients and the cap on MET's Retry-After, as docs/configuration.md states them. */
describe("the listener's limits and the Retry-After cap from the environment", () => {
  it("default to 20 s of headers, 30 s of request, 10,000 connections and an hour of Retry-After", () => {
    const config = configFrom({});
    expect(config.clientLimits).toEqual({ headersTimeoutMs: 20_000, requestTimeoutMs: 30_000, maxConnections: 10_000 });
    expect(config.weather.maxRetryAfterMs).toBe(3_600_000);
  });

  it("take the operator's values in seconds", () => {
    const config = configFrom({
      SERVICE_HEADERS_TIMEOUT_SECONDS: "5",
      SERVICE_REQUEST_TIMEOUT_SECONDS: "5",
      SERVICE_MAX_CONNECTIONS: "200",
      SERVICE_WEATHER_MAX_RETRY_AFTER_SECONDS: "600",
    });
    expect(config.clientLimits).toEqual({ headersTimeoutMs: 5000, requestTimeoutMs: 5000, maxConnections: 200 });
    expect(config.weather.maxRetryAfterMs).toBe(600_000);
  });

  it("refuse a request time-out shorter than the headers', and values out of range, naming the variable", () => {
    expect(() => configFrom({ SERVICE_HEADERS_TIMEOUT_SECONDS: "60" })).toThrow(
      /SERVICE_REQUEST_TIMEOUT_SECONDS \(30\) must not be less than SERVICE_HEADERS_TIMEOUT_SECONDS \(60\)/,
    );
    for (const [name, value] of [
      ["SERVICE_HEADERS_TIMEOUT_SECONDS", "0"],
      ["SERVICE_MAX_CONNECTIONS", "-1"],
      ["SERVICE_WEATHER_MAX_RETRY_AFTER_SECONDS", "86401"],
    ] as const) {
      expect(() => configFrom({ [name]: value })).toThrow(ConfigError);
      expect(() => configFrom({ [name]: value })).toThrow(name);
    }
  });
});
