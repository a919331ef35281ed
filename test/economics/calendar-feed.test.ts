import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";
import { sampleDataDir } from "../support/economics-index.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * The iCalendar feed over the sample archive, read back by an independent parser (ical.js) and compared field by field
 * with the JSON calendar of the same window and filters.
 */
const FEED = "/api/public/v1/economics/calendar.ics";
const CALENDAR = "/api/public/v1/economics/calendar";

// X-WR-CALDESC is TEXT by the convention of the clients that read it (Apple, Google); ical.js reads an X- property it
// does not know raw, so it is told the type to decode the escapes as those clients do.
ICAL.design.icalendar.property["x-wr-caldesc"] = { defaultType: "text" };

interface JsonEvent {
  id: string;
  title: string;
  scheduledDate: string;
  scheduledAt: string | null;
  status: string;
  updatedAt: string;
  release: { officialPageUrl: string; publisher: string };
  changes: { field: string; detectedAt: string }[];
}

describe("GET /api/public/v1/economics/calendar.ics", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
  });
  afterAll(() => service?.close());

  const feed = async (query: string) => {
    const response = await fetch(`${service.url}${FEED}?${query}`);
    const text = await response.text();
    return {
      response,
      text,
      events: response.status === 200 ? new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent") : [],
    };
  };
  const jsonEvents = async (query: string): Promise<JsonEvent[]> => {
    const events: JsonEvent[] = [];
    let cursor: string | null = null;
    do {
      const { body } = await service.request(`${CALENDAR}?${query}&limit=200${cursor ? `&cursor=${cursor}` : ""}`);
      events.push(...(body.data.days as { events: JsonEvent[] }[]).flatMap((day) => day.events));
      cursor = body.meta.nextCursor;
    } while (cursor);
    return events;
  };

  it("holds exactly the JSON calendar's events, each with the same identity, times, status, page and last change", async () => {
    for (const query of [
      "from=2023-08-01&to=2023-09-30",
      "from=2025-01-01&to=2025-03-31&source=labour-stats-release-schedule",
      "from=2026-10-01&to=2026-12-31&status=SCHEDULED",
    ]) {
      const { response, events } = await feed(query);
      expect(response.status, query).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      const expected = await jsonEvents(query);
      expect(expected.length, query).toBeGreaterThan(0);
      const byUid = new Map(events.map((vevent) => [String(vevent.getFirstPropertyValue("uid")), vevent]));
      expect(byUid.size, query).toBe(expected.length);
      for (const event of expected) {
        const vevent = byUid.get(`${event.id}@weather-economics-service`)!;
        expect(vevent, event.id).toBeDefined();
        const start = vevent.getFirstPropertyValue("dtstart") as ICAL.Time;
        if (event.scheduledAt === null) {
          expect(start.isDate, event.id).toBe(true);
          expect(start.toString()).toBe(event.scheduledDate);
        } else {
          expect(start.isDate, event.id).toBe(false);
          expect(start.toJSDate().toISOString()).toBe(new Date(event.scheduledAt).toISOString());
          expect(start.zone?.tzid).toBe("UTC");
        }
        expect(vevent.getFirstPropertyValue("status")).toBe(event.status === "CANCELLED" ? "CANCELLED" : "CONFIRMED");
        expect(vevent.getFirstPropertyValue("url")).toBe(event.release.officialPageUrl);
        expect((vevent.getFirstPropertyValue("dtstamp") as ICAL.Time).toJSDate().toISOString()).toBe(
          new Date(Math.floor(Date.parse(event.updatedAt) / 1000) * 1000).toISOString(),
        );
        expect(String(vevent.getFirstPropertyValue("summary"))).toContain(event.title);
        expect(String(vevent.getFirstPropertyValue("description"))).toMatch(
          /^Source: |\nSource: |Source: ECB statistics/,
        );
      }
    }
  });

  it("raises SEQUENCE for a rescheduled event, marks a removed one CANCELLED, and keeps date-only events dates", async () => {
    const { events } = await feed("from=2023-08-01&to=2023-09-30&source=eu-stats-release-calendar");
    const titled = (title: string) =>
      events.find((vevent) => String(vevent.getFirstPropertyValue("summary")).startsWith(`${title} (`))!;
    const moved = titled("International trade in goods");
    expect(moved.getFirstPropertyValue("sequence")).toBe(1);
    expect((moved.getFirstPropertyValue("dtstart") as ICAL.Time).toString()).toBe("2023-08-17");
    expect(String(moved.getFirstPropertyValue("description"))).toContain(
      "Moved by the source from 2023-08-16 to 2023-08-17",
    );
    const cancelled = titled("New inflation dashboard");
    expect(cancelled.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(cancelled.getFirstPropertyValue("sequence")).toBe(1);
    const unchanged = events.filter((vevent) => Number(vevent.getFirstPropertyValue("sequence")) === 0);
    expect(unchanged.length).toBeGreaterThan(0);
  });

  it("states the calendar's description whole, with one credit line per publisher in the feed", async () => {
    const query = "from=2023-08-01&to=2023-09-30";
    const { text } = await feed(query);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getAllProperties().map((property) => property.name)).not.toContain("source");
    const lines = String(calendar.getFirstPropertyValue("x-wr-caldesc")).split("\n");
    const publishers = [
      ...new Set((await jsonEvents(query)).map((event) => event.release.publisher)),
    ].sort() as (keyof typeof PUBLISHER_TERMS)[];
    expect(publishers.length).toBeGreaterThan(1);
    expect(lines).toEqual([
      "Release dates as the publishers state them (BLS, Eurostat, ECB).",
      ...publishers.map(
        (publisher) => `${PUBLISHER_TERMS[publisher].attributionText}. Terms: ${PUBLISHER_TERMS[publisher].termsUrl}`,
      ),
    ]);
  });

  it("ends every line with CRLF, the last included, and answers an empty window with an empty calendar ical.js reads", async () => {
    for (const query of ["from=2023-08-01&to=2023-09-30", "from=2023-08-01&to=2023-09-30&country=ZZ"]) {
      const { response, text } = await feed(query);
      expect(response.status, query).toBe(200);
      expect(text.endsWith("END:VCALENDAR\r\n"), query).toBe(true);
      expect(text.replaceAll("\r\n", ""), query).not.toMatch(/[\r\n]/);
    }
    const empty = await feed("from=2023-08-01&to=2023-09-30&country=ZZ");
    expect(empty.events).toEqual([]);
    expect(new ICAL.Component(ICAL.parse(empty.text)).name).toBe("vcalendar");
  });

  it("answers with the calendar's cache time, a weak ETag, 304 on a match, and HEAD without a body", async () => {
    const first = await feed("from=2023-08-01&to=2023-09-30");
    expect(first.response.headers.get("cache-control")).toBe("public, max-age=300");
    const etag = first.response.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    const again = await fetch(`${service.url}${FEED}?from=2023-08-01&to=2023-09-30`, {
      headers: { "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    const head = await fetch(`${service.url}${FEED}?from=2023-08-01&to=2023-09-30`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("refuses what the JSON calendar refuses, with the JSON error body", async () => {
    for (const query of ["from=2023-01-01&to=2023-12-31", "status=POSTPONED", "region=MARS", "from=yesterday"]) {
      const response = await fetch(`${service.url}${FEED}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_FAILED");
    }
  });
});
