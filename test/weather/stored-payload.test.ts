import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { packPayload, readPayload, storePayload } from "../../server/weather/stored-payload.ts";
import { loadMetFixture, MET_FIXTURES, payloadFrom } from "./met-fixtures.ts";

/** The cache's packed form of a normalised payload, on MET's recorded documents. */
describe("stored payloads", () => {
  it.each(MET_FIXTURES)("come back exactly as packed, fields in their order (%s)", (name) => {
    const payload = payloadFrom(loadMetFixture(name));
    const stored = storePayload(packPayload(payload));
    expect(JSON.stringify(readPayload(stored))).toBe(JSON.stringify(payload));
    expect(stored.sourceId).toBe(payload.current.source.id);
  });

  it.each(MET_FIXTURES)("pack each series as columns, a third smaller than its rows deflated (%s)", (name) => {
    const payload = payloadFrom(loadMetFixture(name));
    const rowsDeflated = deflateRawSync(JSON.stringify(payload)).length;
    expect(packPayload(payload).packed.byteLength).toBeLessThan(rowsDeflated * 0.75);
  });

  it("keep an empty series empty", () => {
    const payload = { ...payloadFrom(loadMetFixture("compact-oslo-2026-02-06")), hours: [], windows: [] };
    expect(readPayload(storePayload(packPayload(payload)))).toEqual(payload);
  });
});
