import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHED_FILE_RECHECK_MS } from "../../server/files/reloading-file.ts";
import { type RunningService, startService } from "../support/service.ts";
import { runCliAsync, SAMPLES_DIR, startCli } from "./cli-process.ts";

const EVENTS = "/api/v1/economics/events?from=2026-01-01&to=2026-12-31&limit=500";

describe("a running server and the index ingestion publishes", () => {
  let service: RunningService;
  let auth: { headers: { authorization: string } };

  beforeAll(async () => {
    service = await startService({ rateLimit: { credentialedPerWindow: 1_000_000, publicPerWindow: 1_000_000 } });
    auth = { headers: { authorization: `Bearer ${service.createKey(["economics:read"])}` } };
  });
  afterAll(async () => {
    await service?.close();
  });

  it("answers 503 before any ingestion, then 200 after one, without restart", async () => {
    const before = await service.request(EVENTS, auth);
    expect(before.status).toBe(503);
    expect(before.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(before.headers.get("retry-after")).not.toBeNull();
    expect((await service.request("/api/public/v1/economics/calendar")).status).toBe(503);

    // Nothing a reader should open: a build of an index that never finished.
    writeFileSync(join(service.dataDir, "index.sqlite.99999.building"), "SQLite format 3\0 cut short");
    expect((await service.request(EVENTS, auth)).status).toBe(503);

    const ingestion = await runCliAsync(["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", service.dataDir]);
    expect(ingestion.stdout, ingestion.stderr).toMatch(/, index published$/m);

    const after = await service.request(EVENTS, auth);
    expect(after.status).toBe(200);
    expect(after.body.data.entries.length).toBeGreaterThan(0);
    expect(after.body.meta.lastIngestedAt).toEqual(expect.any(String));
    expect((await service.request("/api/public/v1/economics/calendar?from=2026-11-01&to=2026-12-31")).status).toBe(200);
  });

  it("keeps answering complete pages from the old or the new index while another run publishes", async () => {
    const settled = await service.request(EVENTS, auth);
    expect(settled.status).toBe(200);
    const oldUpdatedAt = settled.body.meta.dataUpdatedAt as string;
    const count = settled.body.data.entries.length as number;

    // The same archive again: the new index has the same events, so every answer must hold all of them.
    const run = startCli(["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", service.dataDir]);
    let running = true;
    void run.exited.then(() => {
      running = false;
    });
    const seen: { status: number; entries: number; updatedAt: string }[] = [];
    while (running) {
      const response = await fetch(`${service.url}${EVENTS}`, auth);
      const body = (await response.json()) as { data?: { entries: unknown[] }; meta?: { dataUpdatedAt: string } };
      seen.push({
        status: response.status,
        entries: body.data?.entries.length ?? -1,
        updatedAt: body.meta?.dataUpdatedAt ?? "",
      });
    }
    const exit = await run.exited;
    expect(exit.stdout, exit.stderr).toMatch(/, index published$/m);

    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((answer) => answer.status !== 200 || answer.entries !== count)).toEqual([]);
    // The server looks at the published files again within PUBLISHED_FILE_RECHECK_MS of a publication.
    await new Promise((resolve) => setTimeout(resolve, PUBLISHED_FILE_RECHECK_MS + 5));
    const final = await service.request(EVENTS, auth);
    const newUpdatedAt = final.body.meta.dataUpdatedAt as string;
    expect(newUpdatedAt > oldUpdatedAt).toBe(true);
    expect(final.body.data.entries.length).toBe(count);
    expect(seen.filter((answer) => answer.updatedAt !== oldUpdatedAt && answer.updatedAt !== newUpdatedAt)).toEqual([]);
  });
});
