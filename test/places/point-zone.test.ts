import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { zoneOfPoint } from "../../server/places/point-zone.ts";
import { isKnownZone } from "../../server/time/zone-clock.ts";

/** Minutes east of UTC in a zone at an instant, from the platform's IANA database. */
const offsetAt = (zone: string, iso: string) => DateTime.fromISO(iso, { zone: "UTC" }).setZone(zone).offset;

describe("zoneOfPoint", () => {
  it("finds the zone of points on land, in whole-, half- and quarter-hour zones", () => {
    const cases: [string, number, number, string][] = [
      ["Tromsø", 69.65, 18.96, "Europe/Oslo"],
      ["New York", 40.71, -74.01, "America/New_York"],
      ["Honolulu", 21.31, -157.86, "Pacific/Honolulu"],
      ["São Paulo", -23.55, -46.63, "America/Sao_Paulo"],
      ["Tokyo", 35.68, 139.69, "Asia/Tokyo"],
      ["Kolkata", 22.57, 88.36, "Asia/Kolkata"],
      ["Adelaide", -34.93, 138.6, "Australia/Adelaide"],
      ["St. John's", 47.56, -52.71, "America/St_Johns"],
      ["Tehran", 35.69, 51.39, "Asia/Tehran"],
      ["Kathmandu", 27.7, 85.32, "Asia/Kathmandu"],
      ["Chatham Islands", -43.95, -176.56, "Pacific/Chatham"],
    ];
    for (const [place, latitude, longitude, zone] of cases) expect(zoneOfPoint(latitude, longitude), place).toBe(zone);
  });

  it("gives zones whose offsets are not whole hours where the place keeps such a clock", () => {
    expect(offsetAt(zoneOfPoint(22.57, 88.36), "2020-07-20T12:00:00Z")).toBe(330);
    expect(offsetAt(zoneOfPoint(-34.93, 138.6), "2020-07-20T12:00:00Z")).toBe(570);
    expect(offsetAt(zoneOfPoint(27.7, 85.32), "2020-07-20T12:00:00Z")).toBe(345);
  });

  it("gives the nautical zone of the longitude at sea (POSIX sign: Etc/GMT+3 is UTC-3)", () => {
    expect(zoneOfPoint(30, -40)).toBe("Etc/GMT+3");
    expect(offsetAt(zoneOfPoint(30, -40), "2020-07-20T12:00:00Z")).toBe(-180);
    expect(zoneOfPoint(-40, 90)).toBe("Etc/GMT-6");
    expect(zoneOfPoint(0, -180)).toBe("Etc/GMT+12");
  });

  it("answers every valid point, poles and antimeridian included, with a zone the service knows", () => {
    const zones = new Set<string>();
    for (let latitude = -90; latitude <= 90; latitude += 7.5) {
      for (let longitude = -180; longitude <= 180; longitude += 7.5) zones.add(zoneOfPoint(latitude, longitude));
    }
    expect(zones.size).toBeGreaterThan(100);
    expect([...zones].filter((zone) => !isKnownZone(zone))).toEqual([]);
  });
});
