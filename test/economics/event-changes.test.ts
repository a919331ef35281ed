import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLES_DIR } from "../ingest/cli-process.ts";
import { sampleDataDir } from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * `changes[]` over the sample archive's two real Eurostat calendar snapshots (2023-07-19 and 2023-08-01): the later
 * one moves "International trade in goods" from 16 to 17 August and no longer lists the "New inflation dashboard".
 */
const LATER_SNAPSHOT = readFileSync(
  join(SAMPLES_DIR, "eu-stats-release-calendar", "eurostat-release-calendar-2023-08-01.json"),
);
const LATER_SHA256 = createHash("sha256").update(LATER_SNAPSHOT).digest("hex");

describe("an event's changes[]: what its source changed, when it was detected and by which document", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
    get = credentialedClient(service);
  });
  afterAll(() => service?.close());

  const eventTitled = async (title: string, from: string, to: string, path = "/api/v1/economics/events") => {
    const { status, body } = await get(`${path}?from=${from}&to=${to}&limit=500`);
    expect(status).toBe(200);
    return (body.data.entries as { title: string; changes: unknown[] }[]).filter((entry) => entry.title === title);
  };

  it("lists a rescheduled event's move: the date before and after, and the status it took, from the later snapshot", async () => {
    const [moved, ...others] = await eventTitled("International trade in goods", "2023-08-01", "2023-08-31");
    expect(others).toEqual([]);
    expect(moved).toMatchObject({ status: "RESCHEDULED", scheduledDate: "2023-08-17" });
    const document = { sha256: LATER_SHA256, fetchedAt: "2023-08-01T23:59:59.000Z" };
    expect(moved!.changes).toEqual([
      { field: "scheduledDate", from: "2023-08-16", to: "2023-08-17", detectedAt: expect.any(String), document },
      { field: "status", from: "SCHEDULED", to: "RESCHEDULED", detectedAt: expect.any(String), document },
    ]);
  });

  it("lists a cancelled event's status change, and unchanged events list nothing", async () => {
    const [cancelled] = await eventTitled("New inflation dashboard", "2023-08-15", "2023-09-15");
    expect(cancelled).toMatchObject({
      status: "CANCELLED",
      changes: [
        {
          field: "status",
          from: "SCHEDULED",
          to: "CANCELLED",
          detectedAt: expect.any(String),
          document: { sha256: LATER_SHA256, fetchedAt: "2023-08-01T23:59:59.000Z" },
        },
      ],
    });
    const { body } = await get("/api/v1/economics/events?from=2023-07-20&to=2023-07-31&limit=500");
    const unchanged = (body.data.entries as { status: string; changes: unknown[] }[]).filter(
      (entry) => entry.status === "SCHEDULED",
    );
    expect(unchanged.length).toBeGreaterThan(0);
    expect(
      unchanged.filter(
        (entry) =>
          entry.changes.length > 0 &&
          !(entry.changes as { field: string }[]).every((change) => change.field === "release"),
      ),
    ).toEqual([]);
  });

  it("carries changes[] on the public calendar too", async () => {
    const { body } = await service.request("/api/public/v1/economics/calendar?from=2023-08-15&to=2023-08-20&limit=200");
    const events = (body.data.days as { events: { title: string; changes: unknown[] }[] }[]).flatMap(
      (day) => day.events,
    );
    expect(events.find((event) => event.title === "International trade in goods")?.changes).toHaveLength(2);
  });
});
