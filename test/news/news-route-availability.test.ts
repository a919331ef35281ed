import { afterAll, describe, expect, it } from "vitest";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { fakeClock, startService } from "../support/service.ts";
import { expectRefused, INGESTED_AT, NEWS } from "./news-route-fixtures.ts";
import { ingest, removeTempDirs, SAMPLES_DIR, tempDir } from "./news-support.ts";

afterAll(removeTempDirs);

describe("without announcements to serve", () => {
  it("no published index: 503 SERVICE_UNAVAILABLE with Retry-After, parameters still validated first", async () => {
    const service = await startService({ clock: fakeClock() });
    try {
      const { status, body, headers } = await service.request(NEWS);
      expect(status).toBe(503);
      expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
      expect(headers.get("retry-after")).toMatch(/^\d+$/);
      await expectRefused(service, "type=BLOG");
    } finally {
      await service.close();
    }
  });

  it("no durable storage bound: 503", async () => {
    const service = await startService({ clock: fakeClock(), durableStorage: false });
    try {
      const { status, body } = await service.request(NEWS);
      expect(status).toBe(503);
      expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
    } finally {
      await service.close();
    }
  });

  it("an index whose news feeds never succeeded: 200, no events, dataStatus unavailable, dataUpdatedAt null", async () => {
    const dataDir = tempDir("no-news");
    const calendarsOnly = SOURCES.filter((source) => source.kind !== "news").map((source) => source.slug);
    expect((await ingest(dataDir, SAMPLES_DIR, INGESTED_AT, calendarsOnly)).outcome).toBe("succeeded");
    const service = await startService({ clock: fakeClock("2026-07-24T07:00:00Z"), seedDataDir: dataDir });
    try {
      const { status, body } = await service.request(NEWS);
      expect(status).toBe(200);
      expect(body.data.events).toEqual([]);
      expect(body.meta).toMatchObject({ dataStatus: "unavailable", dataUpdatedAt: null, nextCursor: null });
    } finally {
      await service.close();
    }
  });
});
