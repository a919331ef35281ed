import fc from "fast-check";
import { DateTime, FixedOffsetZone } from "luxon";
import { describe, expect, it } from "vitest";
import { readMetInstant } from "../../server/weather/met-instants.ts";

/** What the service read each time before the texts were remembered: luxon, afresh. */
function readByLuxon(text: string) {
  const parsed = DateTime.fromISO(text, { zone: "utc" });
  return parsed.isValid ? { epochMs: parsed.toMillis(), utcIso: parsed.toISO({ suppressMilliseconds: true }) } : null;
}

describe("MET's times, read once per text", () => {
  it("reads MET's spelling and any offset to the same instant and one UTC spelling", () => {
    expect(readMetInstant("2022-08-02T12:00:00Z")).toEqual({
      epochMs: Date.UTC(2022, 7, 2, 12),
      utcIso: "2022-08-02T12:00:00Z",
    });
    expect(readMetInstant("2022-08-02T14:00:00+02:00")).toEqual({
      epochMs: Date.UTC(2022, 7, 2, 12),
      utcIso: "2022-08-02T12:00:00Z",
    });
    expect(readMetInstant("2022-08-02T12:00:00.250Z")?.utcIso).toBe("2022-08-02T12:00:00.250Z");
  });

  it("answers null for what luxon cannot read, the second time as the first", () => {
    for (const text of ["2022-08-02 12:00:00Z", "2022-02-30T00:00:00Z", "noon", ""]) {
      expect(readMetInstant(text)).toBeNull();
      expect(readMetInstant(text)).toBeNull();
    }
  });

  it("agrees with luxon read afresh, over more texts than it keeps", () => {
    const instants = fc.date({
      min: new Date("1970-01-01T00:00:00Z"),
      max: new Date("2100-01-01T00:00:00Z"),
      noInvalidDate: true,
    });
    const offsets = fc.integer({ min: -12 * 60, max: 14 * 60 });
    fc.assert(
      fc.property(instants, offsets, (instant, offsetMinutes) => {
        const text = DateTime.fromJSDate(instant).setZone(FixedOffsetZone.instance(offsetMinutes)).toISO()!;
        expect(readMetInstant(text)).toEqual(readByLuxon(text));
        expect(readMetInstant(text)?.epochMs).toBe(instant.getTime());
      }),
      { numRuns: 6000 },
    );
  });
});
