import { afterAll, beforeAll, expect } from "vitest";
import { edgeCaseDataDir } from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import { EDGE_EVENTS } from "../support/synthetic-economics-corpora.ts";
import { eventIdOf } from "../support/synthetic-index-spec.ts";

/** The edge corpus's event ids, the March range and response helpers of the credentialed-events-*.test.ts files. */

export type Entry = Record<string, any> & { id: string; scheduledDate: string; scheduledAt: string | null };

export const ID = Object.fromEntries(
  Object.entries(EDGE_EVENTS).map(([name, spec]) => [name, eventIdOf(spec)]),
) as Record<keyof typeof EDGE_EVENTS, string>;
export const MARCH = "from=2026-03-01&to=2026-03-31";
export const ALL_MARCH = [
  ID.employment0309,
  ID.ppi0310,
  ID.cpi0311,
  ID.realEarnings0311,
  ID.jolts0311,
  ID.unemployment0312,
  ID.industrialProduction0312,
  ID.hicpFlash0312,
  ID.eci0317,
  ID.hicp0318,
  ID.ecbDecision0319,
];

export const idsOf = (body: any): string[] => body.data.entries.map((entry: Entry) => entry.id);
export const sorted = (ids: string[]) => [...ids].sort();

/** One service over the edge corpus per test file (its clock at 2026-03-14 12:00Z), with the events client and an error check. */
export function edgeCaseEventsService() {
  const edge = {} as { service: RunningService; get: ReturnType<typeof credentialedClient> };
  beforeAll(async () => {
    edge.service = await startService({
      seedDataDir: await edgeCaseDataDir(),
      clock: fakeClock("2026-03-14T12:00:00Z"),
    });
    edge.get = credentialedClient(edge.service);
  });
  afterAll(() => edge.service.close());
  const events = (query: string) => edge.get(`/api/v1/economics/events?${query}`);
  const expectError = async (query: string, status: number, code: string) => {
    const response = await events(query);
    expect(response.status, query).toBe(status);
    expect(response.body.error.code, query).toBe(code);
  };
  return { edge, events, expectError };
}
