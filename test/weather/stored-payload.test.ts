import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { packPayload, readPayload, readPayloadHead, storePayload } from "../../server/weather/stored-payload.ts";
import { loadMetFixture, MET_FIXTURES, payloadFrom, syntheticMetDocument } from "./met-fixtures.ts";

/** The cache's packed form of a normalised payload, on MET's recorded documents. */
describe("stored payloads", () => {
  it.each(MET_FIXTURES)("come back exactly as packed, fields in their order (%s)", (name) => {
    const payload = payloadFrom(loadMetFixture(name));
    const stored = storePayload(packPayload(payload));
    expect(JSON.stringify(readPayload(stored))).toBe(JSON.stringify(payload));
    expect(stored.sourceId).toBe(payload.current.source.id);
  });

  it.each(MET_FIXTURES)("give the current routes their head alone, exactly as packed (%s)", (name) => {
    const payload = payloadFrom(loadMetFixture(name));
    const { location, providerModelUpdatedAt, current } = payload;
    const stored = storePayload(packPayload(payload));
    expect(JSON.stringify(readPayloadHead(stored))).toBe(JSON.stringify({ location, providerModelUpdatedAt, current }));
    // The head is a small part of what is kept: reading it does not inflate the forecast's series.
    expect(stored.headBytes).toBeLessThan(stored.packed.length / 4);
  });

  it.each(MET_FIXTURES)("pack each series as columns, a third smaller than its rows deflated (%s)", (name) => {
    const payload = payloadFrom(loadMetFixture(name));
    const rowsDeflated = deflateRawSync(JSON.stringify(payload)).length;
    expect(packPayload(payload).packed.byteLength).toBeLessThan(rowsDeflated * 0.75);
  });

  it("come back exactly where MET left variables out, step by step", () => {
    // Columns take their fields from a series' first row: every row must have them, null where MET sent nothing.
    const payload = payloadFrom(
      syntheticMetDocument([
        {
          time: "2026-11-21T12:00:00Z",
          oneHour: { precipitationMm: 0.2 },
          sixHours: { precipitationMm: 1.1, minC: 2 },
        },
        { time: "2026-11-21T13:00:00Z", temperatureC: 4.5, oneHour: { precipitationMm: 0, symbol: "rain" } },
        { time: "2026-11-21T18:00:00Z", sixHours: { precipitationMm: 0.4, maxC: 7.5, symbol: "fair_day" } },
        { time: "2026-11-22T00:00:00Z" },
      ]),
    );
    expect(JSON.stringify(readPayload(storePayload(packPayload(payload))))).toBe(JSON.stringify(payload));
  });

  it("keep an empty series empty", () => {
    const payload = { ...payloadFrom(loadMetFixture("compact-oslo-2026-02-06")), hours: [], windows: [] };
    expect(readPayload(storePayload(packPayload(payload)))).toEqual(payload);
  });
});
