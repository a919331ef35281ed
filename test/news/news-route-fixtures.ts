import { afterAll, beforeAll, expect } from "vitest";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import { sampleDataDir } from "./news-support.ts";

/** The route, the sample index's ingestion time and announcements, and the response checks of the news-route-*.test.ts files. */

export const NEWS = "/api/public/v1/news/events";
export const INGESTED_AT = "2026-07-24T06:00:00.000Z";
export const HOUR = 3_600_000;

/**
 * The sample feeds' 21 announcements, newest first: the fifteen items of the real ECB press feed recording of 24 June
 * 2026, then the six of the constructed BLS feed (their links are checked in linking.test.ts).
 */
export const SAMPLE_TITLES = [
  "ECB reports on progress towards euro adoption",
  "Iceland joins TIPS for instant payments",
  "Boris Vujčić: Outlook for the euro area economy and monetary policy",
  "Philip R. Lane: Introductory remarks",
  "Christine Lagarde: Hearing of the Committee on Economic and Monetary Affairs of the European Parliament",
  "Frank Elderson: Fireside chat",
  "Piero Cipollone: The foundations of national sovereignty: the role of central bank money",
  "ECB publishes consolidated banking data for end-December 2025",
  "Piero Cipollone: Digital euro: the future of money",
  "New data release: ECB wage tracker points to stable negotiated wage pressures in 2026",
  "Philip R. Lane: Outlook for the euro area economy",
  "Carbon emissions of ECB and Eurosystem portfolios continue to decline",
  "Christine Lagarde: Money in transition",
  "Decisions taken by the Governing Council of the ECB (in addition to decisions setting interest rates)",
  "EU structural financial indicators: end of 2025",
  "Consumer Price Index - February 2026",
  "Consumer Price Index and Real Earnings - December 2025",
  "Real Earnings - November 2025",
  "The Employment Situation - November 2025",
  "Employer Costs for Employee Compensation - September 2025",
  "Consumer Price Index - September 2025",
];
/** Where the ECB items end in SAMPLE_TITLES. */
export const ECB_ITEMS = 15;

export const titles = (body: any): string[] => body.data.events.map((event: { title: string }) => event.title);

export async function expectRefused(service: RunningService, query: string): Promise<void> {
  const { status, body, headers } = await service.request(`${NEWS}?${query}`);
  expect(status, query).toBe(400);
  expect(body.error.code, query).toBe("VALIDATION_FAILED");
  expect(headers.get("cache-control")).toBe("no-store");
}

/** One service over the sample archive per test file, its clock at 2026-07-25 12:00Z, and a client of the news route. */
export function sampleNewsService() {
  const clock = fakeClock("2026-07-25T12:00:00Z");
  let service: RunningService | undefined;
  beforeAll(async () => {
    service = await startService({ clock, seedDataDir: await sampleDataDir(INGESTED_AT) });
  });
  afterAll(async () => {
    await service?.close();
  });
  const get = (query = "") => service!.request(`${NEWS}${query ? `?${query}` : ""}`);
  const refuse = (query: string) => expectRefused(service!, query);
  return { clock, get, refuse };
}
