import { afterAll, describe, expect, it } from "vitest";
import { removeEconomicsDataDirs } from "../support/economics-index.ts";
import { credentialedClient, inEventOrder } from "../support/economics-requests.ts";
import { ECI_MOVED, EDGE_RUNS } from "../support/synthetic-economics-corpora.ts";
import {
  ALL_MARCH,
  type Entry,
  edgeCaseEventsService,
  ID,
  idsOf,
  MARCH,
  sorted,
} from "./credentialed-events-fixtures.ts";

afterAll(removeEconomicsDataDirs);

describe("GET /api/v1/economics/events over a synthetic index", () => {
  const { edge, events } = edgeCaseEventsService();

  describe("access", () => {
    it("needs a credential with economics:read", async () => {
      const anonymous = await edge.service.request(`/api/v1/economics/events?${MARCH}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe("UNAUTHORIZED");
      const weatherOnly = await credentialedClient(edge.service, ["weather:read"])(`/api/v1/economics/events?${MARCH}`);
      expect(weatherOnly.status).toBe(403);
      expect(weatherOnly.body.error.code).toBe("FORBIDDEN");
      expect((await events(MARCH)).status).toBe(200);
    });

    it("answers HEAD with the same status and headers and no body", async () => {
      const head = await edge.get(`/api/v1/economics/events?${MARCH}&limit=2`, { method: "HEAD" });
      const full = await events(`${MARCH}&limit=2`);
      expect(head.status).toBe(200);
      expect(head.text).toBe("");
      for (const name of ["content-type", "cache-control", "ratelimit-limit"])
        expect(head.headers.get(name), name).toBe(full.headers.get(name));
      const failing = await edge.get("/api/v1/economics/events?tz=Nowhere/Nothing", { method: "HEAD" });
      expect(failing.status).toBe(400);
      expect(failing.text).toBe("");
    });
  });

  describe("records and meta", () => {
    it("orders entries by scheduled date ascending (then timed before date-only, time, id)", async () => {
      const { status, body } = await events(MARCH);
      expect(status).toBe(200);
      expect(idsOf(body)).toEqual(inEventOrder(body.data.entries).map((entry) => entry.id));
      expect(sorted(idsOf(body))).toEqual(sorted(ALL_MARCH));
      const dates = body.data.entries.map((entry: Entry) => entry.scheduledDate);
      expect(dates).toEqual([...dates].sort());
    });

    it("carries the economics freshness meta, a null nextCursor on the last page, and no public-only dataStatus", async () => {
      const { body, headers } = await events(MARCH);
      expect(body.meta).toMatchObject({
        lastIngestedAt: EDGE_RUNS.third,
        lastSuccessfulIngestionAt: EDGE_RUNS.second,
        dataUpdatedAt: EDGE_RUNS.third,
        nextCursor: null,
      });
      expect(body.meta).not.toHaveProperty("dataStatus");
      expect(headers.get("cache-control")).toBe("no-store");
    });

    it("describes a timed BLS event, a date-only Eurostat event and an ECB event filed under region EA", async () => {
      const { body } = await events(MARCH);
      const byId = new Map<string, Entry>(body.data.entries.map((entry: Entry) => [entry.id, entry]));
      expect(byId.get(ID.ppi0310)).toMatchObject({
        title: "Producer Price Index",
        release: { slug: "bls-producer-price-index", publisher: "BLS" },
        country: "US",
        region: null,
        currency: "USD",
        scheduledDate: "2026-03-10",
        scheduledAt: "2026-03-10T12:30:00.000Z",
        timePrecision: "EXACT_TIME",
        sourceTimezone: "America/New_York",
        status: "SCHEDULED",
        importance: "MEDIUM",
        publication: { releasedAt: null, detectedAt: null, confirmed: false, evidence: [], officialPublication: null },
        attribution: { text: "Source: U.S. Bureau of Labor Statistics", required: true },
      });
      expect(byId.get(ID.hicpFlash0312)).toMatchObject({
        country: null,
        region: "EA",
        currency: "EUR",
        scheduledDate: "2026-03-12",
        scheduledAt: null,
        timePrecision: "DATE_ONLY",
        sourceTimezone: "Europe/Luxembourg",
        referencePeriod: { kind: "MONTH", code: "2026-02", startDate: "2026-02-01", endDate: "2026-02-28" },
        // Past its date (the clock is 2026-03-14) with no value held: no longer "still coming".
        values: { availability: "UNAVAILABLE", actual: null, previous: null },
      });
      const ecb = byId.get(ID.ecbDecision0319)!;
      expect(ecb).toMatchObject({
        country: null,
        region: "EA",
        currency: "EUR",
        release: { slug: "ecb-monetary-policy-decision", publisher: "ECB" },
      });
      // The second source attached to the canonical event (no copy) and supplied the time the first lacked.
      expect(ecb.sources.map((source: { sourceId: string }) => source.sourceId)).toEqual([
        "central-bank-meetings-calendar",
        "central-bank-statistics-calendar",
      ]);
      expect(ecb).toMatchObject({ scheduledAt: "2026-03-19T13:15:00.000Z", timePrecision: "EXACT_TIME" });
      expect(
        body.data.entries.filter((entry: Entry) => entry.release.slug === "ecb-monetary-policy-decision"),
      ).toHaveLength(1);
    });

    it("confirms only with evidence and serves the published decimal strings in values", async () => {
      const { body } = await events(MARCH);
      const byId = new Map<string, Entry>(body.data.entries.map((entry: Entry) => [entry.id, entry]));
      const cpi = byId.get(ID.cpi0311)!;
      expect(cpi.status).toBe("SCHEDULED");
      expect(cpi.publication).toMatchObject({
        confirmed: true,
        releasedAt: "2026-03-11T12:30:00.000Z",
        detectedAt: EDGE_RUNS.second,
        officialPublication: { url: "https://www.bls.gov/news.release/cpi.toc.htm" },
      });
      expect(cpi.publication.evidence.map((item: { kind: string }) => item.kind)).toEqual([
        "VERIFIED_VALUE",
        "VERIFIED_VALUE",
      ]);
      // The release's first headline figure: the seasonally adjusted 1-month change, 327.000 / 326.588 - 1 = 0.126 %.
      // Its previous month (2026-01) needs a 2025-12 index the corpus does not hold, so there is no previous value.
      expect(cpi.values).toMatchObject({
        availability: "AVAILABLE",
        actual: {
          seriesSlug: "us-cpi-all-items-1-month-change-sa",
          referencePeriod: "2026-02",
          value: "0.1",
          vintage: 1,
          revisions: [],
        },
        previous: null,
      });
      const unemployment = byId.get(ID.unemployment0312)!;
      expect(unemployment.publication.confirmed).toBe(true);
      expect(unemployment.publication.releasedAt).toBeNull();
      // 6.2 was recorded before the release's date, 6.1 on the first run after it (the release's figure), 6.0 the run
      // after that: a revision, shown as one and never as the release's figure.
      expect(unemployment.values.actual).toMatchObject({
        seriesSlug: "ea-unemployment-rate",
        referencePeriod: "2026-01",
        value: "6.1",
        vintage: 2,
        revisions: [{ vintage: 3, value: "6.0", publicationStatus: null, recordedAt: EDGE_RUNS.third }],
      });
      const hicp = byId.get(ID.hicp0318)!;
      expect(hicp.status).toBe("PUBLISHED");
      expect(hicp.publication.evidence.map((item: { kind: string }) => item.kind)).toEqual(["SOURCE_CALENDAR"]);
      expect(byId.get(ID.eci0317)).toMatchObject({
        status: "RESCHEDULED",
        scheduledDate: ECI_MOVED.date,
        scheduledAt: ECI_MOVED.at,
      });
      expect(byId.get(ID.industrialProduction0312)!.status).toBe("CANCELLED");
    });

    it("publishes no forecast, consensus or expected figure", async () => {
      const { text } = await events(`${MARCH}&tz=UTC`);
      expect(text).not.toMatch(/"[a-zA-Z]*(forecast|consensus|expected|prior|survey)[a-zA-Z]*"\s*:/i);
    });
  });

  describe("derivedState from the clock", () => {
    const stateAt = async (clock: string, id: string) => {
      edge.service.clock.set(clock);
      const { body } = await events(MARCH);
      return body.data.entries.find((entry: Entry) => entry.id === id) as Entry;
    };
    afterAll(() => edge.service.clock.set("2026-03-14T12:00:00Z"));

    it("timed event: UPCOMING before its day in the source zone, DUE_TODAY on it, PAST_DUE once the time has passed", async () => {
      // PPI at 08:30 New York (EDT, UTC-4) on 2026-03-10; the day starts at 04:00Z.
      expect((await stateAt("2026-03-10T03:59:59.999Z", ID.ppi0310)).derivedState).toBe("UPCOMING");
      expect((await stateAt("2026-03-10T04:00:00.000Z", ID.ppi0310)).derivedState).toBe("DUE_TODAY");
      expect((await stateAt("2026-03-10T12:29:59.999Z", ID.ppi0310)).derivedState).toBe("DUE_TODAY");
      const due = await stateAt("2026-03-10T12:30:00.000Z", ID.ppi0310);
      expect(due.derivedState).toBe("PAST_DUE_AWAITING_CONFIRMATION");
      // The source's status never changes because time passed.
      expect(due.status).toBe("SCHEDULED");
      expect((await stateAt("2026-11-21T12:00:00Z", ID.ppi0310)).status).toBe("SCHEDULED");
    });

    it("date-only event: past due at the end of its date in the source zone, not the UTC end", async () => {
      // Luxembourg (CET, UTC+1): 2026-03-12 runs from 2026-03-11T23:00Z to 2026-03-12T23:00Z.
      expect((await stateAt("2026-03-11T22:59:59.999Z", ID.hicpFlash0312)).derivedState).toBe("UPCOMING");
      expect((await stateAt("2026-03-11T23:00:00.000Z", ID.hicpFlash0312)).derivedState).toBe("DUE_TODAY");
      expect((await stateAt("2026-03-12T22:59:59.999Z", ID.hicpFlash0312)).derivedState).toBe("DUE_TODAY");
      expect((await stateAt("2026-03-12T23:00:00.000Z", ID.hicpFlash0312)).derivedState).toBe(
        "PAST_DUE_AWAITING_CONFIRMATION",
      );
      expect((await stateAt("2026-03-12T23:30:00.000Z", ID.hicpFlash0312)).derivedState).toBe(
        "PAST_DUE_AWAITING_CONFIRMATION",
      );
    });

    it("evidence gives CONFIRMED_PUBLISHED whatever the clock; a withdrawn event is CANCELLED_AT_SOURCE", async () => {
      for (const clock of ["2026-03-01T00:00:00Z", "2026-03-11T12:00:00Z", "2026-12-01T00:00:00Z"]) {
        expect((await stateAt(clock, ID.cpi0311)).derivedState, clock).toBe("CONFIRMED_PUBLISHED");
        expect((await stateAt(clock, ID.unemployment0312)).derivedState, clock).toBe("CONFIRMED_PUBLISHED");
        expect((await stateAt(clock, ID.hicp0318)).derivedState, clock).toBe("CONFIRMED_PUBLISHED");
        expect((await stateAt(clock, ID.industrialProduction0312)).derivedState, clock).toBe("CANCELLED_AT_SOURCE");
      }
    });

    it("a rescheduled event is judged by its new time and keeps status RESCHEDULED", async () => {
      expect((await stateAt("2026-03-17T13:00:00Z", ID.eci0317)).derivedState).toBe("UPCOMING");
      const after = await stateAt("2026-03-18T12:30:00Z", ID.eci0317);
      expect(after.derivedState).toBe("PAST_DUE_AWAITING_CONFIRMATION");
      expect(after.status).toBe("RESCHEDULED");
    });
  });
});
