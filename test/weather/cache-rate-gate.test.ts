import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createRateGate } from "../../server/weather/rate-gate.ts";
import { WeatherUpstreamError } from "../../server/weather/upstream-error.ts";

describe("rate gate", () => {
  it("on real timers, no window holds more than the allowance, and waiting callers are served in arrival order", async () => {
    // The grant time is the gate's own last clock reading: each caller resumes before the next caller's turn starts.
    let lastReading = 0;
    const gate = createRateGate({ maxRequests: 5, windowMs: 100, now: () => (lastReading = performance.now()), sleep });
    const granted: Array<{ caller: number; at: number }> = [];
    // Each request finishes as soon as it is granted.
    await Promise.all(
      Array.from({ length: 12 }, (_, caller) =>
        gate.acquire().then((release) => {
          granted.push({ caller, at: lastReading });
          release();
        }),
      ),
    );
    expect(granted.map((grant) => grant.caller)).toEqual([...Array(12).keys()]);
    for (const { at } of granted) {
      expect(granted.filter((grant) => grant.at >= at && grant.at < at + 100).length).toBeLessThanOrEqual(5);
    }
    expect(granted.at(-1)!.at - granted[0]!.at).toBeGreaterThanOrEqual(200);
  });

  it("lets a caller through at once when the last window has room", async () => {
    let now = 0;
    const sleeps: number[] = [];
    const gate = createRateGate({
      maxRequests: 2,
      windowMs: 1000,
      now: () => now,
      sleep: async (ms) => void sleeps.push(ms),
    });
    (await gate.acquire())();
    now = 999;
    (await gate.acquire())();
    now = 1000; // the first request, finished at 0, has left the window
    (await gate.acquire())();
    expect(sleeps).toEqual([]);
  });

  it("after a pause lets one request through alone: a new pause during it closes the gate again, its end opens it", async () => {
    let now = 0;
    const gate = createRateGate({
      maxRequests: 5,
      windowMs: 1000,
      maxWaitMs: 3000,
      now: () => now,
      // Waiting costs no real time: the clock moves by what the caller waits.
      sleep: async (ms) => {
        now += ms;
      },
    });
    const refusal = () =>
      gate.acquire().then(
        () => null,
        (error: unknown) => error,
      );
    gate.pauseFor(3_600_000);
    expect(await refusal()).toBeInstanceOf(WeatherUpstreamError);
    expect(await refusal()).toMatchObject({ code: "UPSTREAM_UNAVAILABLE" });
    now = 3_600_000;
    const firstProbe = await gate.acquire();
    // While the probe runs nobody else goes: a caller waits its bound, then is refused.
    expect(await refusal()).toMatchObject({ message: "MET asked us to back off" });
    // MET refuses the probe with a new Retry-After: the gate is closed again, past the callers' bound.
    gate.pauseFor(3_600_000);
    firstProbe();
    expect(await refusal()).toBeInstanceOf(WeatherUpstreamError);
    now += 3_600_000;
    const secondProbe = await gate.acquire();
    secondProbe();
    // That one came back without a new pause: the whole allowance is open at once.
    now += 1000;
    const granted = await Promise.all(Array.from({ length: 5 }, () => gate.acquire()));
    expect(granted).toHaveLength(5);
  });
});
