import { afterEach, describe, expect, it } from "vitest";
import { noIngestionDataDir, sampleDataDir } from "../support/economics-index.ts";
import { type RunningService, startService } from "../support/service.ts";

describe("liveness and readiness", () => {
  let service: RunningService | undefined;
  afterEach(() => service?.close());

  it("is live and ready with a published index, and neither probe is counted in the rate limits", async () => {
    service = await startService({ seedDataDir: await sampleDataDir(), rateLimit: { publicPerWindow: 1 } });
    for (let i = 0; i < 5; i++) {
      const live = await service.request("/api/public/v1/health/live");
      expect(live.status).toBe(200);
      expect(live.body.data).toEqual({ status: "live" });
      expect(live.headers.get("ratelimit-limit")).toBeNull();
      const ready = await service.request("/api/public/v1/health/ready");
      expect(ready.status).toBe(200);
      expect(ready.body.data).toEqual({ ready: true, registry: "loaded", index: "published" });
    }
  });

  it("is not ready while a bound store has no index from a completed ingestion, and ready with storage off", async () => {
    service = await startService({ seedDataDir: await noIngestionDataDir() });
    const notReady = await service.request("/api/public/v1/health/ready");
    expect(notReady.status).toBe(503);
    expect(notReady.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(notReady.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await service.request("/api/public/v1/health/live")).status).toBe(200);
    await service.close();
    service = await startService({ durableStorage: false });
    expect((await service.request("/api/public/v1/health/ready")).body.data).toEqual({
      ready: true,
      registry: "loaded",
      index: "not-bound",
    });
  });
});
