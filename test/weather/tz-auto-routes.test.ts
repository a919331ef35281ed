import { readFileSync } from "node:fs";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/** The stand-in answers every point with this recorded document; its first and last steps bound the days. */
const FIXTURE = JSON.parse(
  readFileSync(new URL("../fixtures/met/complete-london-2020-07-20.json", import.meta.url), "utf8"),
) as {
  properties: { timeseries: { time: string }[] };
};
const FIRST_STEP = FIXTURE.properties.timeseries[0]!.time;
const LAST_STEP = FIXTURE.properties.timeseries.at(-1)!.time;
const HOUR_MS = 3_600_000;

/** Points in whole-, half- and quarter-hour zones, and one at sea; 2-decimal points, as the public routes serve them. */
const POINTS = [
  { place: "Tromsø", lat: 69.65, lon: 18.96, zone: "Europe/Oslo" },
  { place: "New York", lat: 40.71, lon: -74.01, zone: "America/New_York" },
  { place: "Honolulu", lat: 21.31, lon: -157.86, zone: "Pacific/Honolulu" },
  { place: "Kolkata", lat: 22.57, lon: 88.36, zone: "Asia/Kolkata" },
  { place: "Adelaide", lat: -34.93, lon: 138.6, zone: "Australia/Adelaide" },
  { place: "Kathmandu", lat: 27.7, lon: 85.32, zone: "Asia/Kathmandu" },
  { place: "St. John's", lat: 47.56, lon: -52.71, zone: "America/St_Johns" },
  { place: "mid-Atlantic", lat: 30, lon: -40, zone: "Etc/GMT+3" },
];

/** What the zone's own midnights make of the forecast: each local date from the first step's to the last step's. */
function expectedDays(zone: string) {
  const first = DateTime.fromISO(FIRST_STEP, { zone });
  const last = DateTime.fromISO(LAST_STEP, { zone });
  const dates: string[] = [];
  for (let day = first.startOf("day"); day <= last; day = day.plus({ days: 1 })) dates.push(day.toISODate()!);
  const firstMidnight = first.startOf("day").plus({ days: 1 }).toMillis();
  return { dates, firstDayHours: Math.floor((firstMidnight - first.toMillis()) / HOUR_MS) };
}

describe("tz=auto on the weather forecast routes", () => {
  let met: MetStandin;
  let service: RunningService;
  let key: string;

  beforeAll(async () => {
    const clock = fakeClock();
    met = await startMetStandin({ now: clock.now });
    service = await startService({ clock, weatherBaseUrl: met.url });
    key = service.createKey(["weather:read"]);
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  const credentialed = (path: string) => service.request(path, { headers: { authorization: `Bearer ${key}` } });

  it("assembles the public forecast's days at the midnights of the point's zone, and states the zone", async () => {
    for (const { place, lat, lon, zone } of POINTS) {
      const where = `lat=${lat}&lon=${lon}&days=10&hours=48`;
      const auto = await service.request(`/api/public/v1/weather/forecast?${where}&tz=auto`);
      expect(auto.status, place).toBe(200);
      const { timeZone, days } = auto.body.data.forecast;
      expect(timeZone, place).toBe(zone);

      const expected = expectedDays(zone);
      expect(
        days.map((day: { date: string }) => day.date),
        place,
      ).toEqual(expected.dates.slice(0, 10));
      expect(days[0], place).toMatchObject({ partial: true, hoursCovered: expected.firstDayHours });
      expect(days[1], place).toMatchObject({ partial: false, hoursCovered: 24 });

      // The same rendering as naming the zone: the days are the zone's, and so is the ETag.
      const named = await service.request(`/api/public/v1/weather/forecast?${where}&tz=${encodeURIComponent(zone)}`);
      expect(named.body.data, place).toEqual(auto.body.data);
      expect(named.headers.get("etag"), place).toBe(auto.headers.get("etag"));
    }
  });

  it("differs from the UTC assembly where the zone's midnight does, and UTC stays the default", async () => {
    const where = "lat=-34.93&lon=138.6";
    const utc = (await service.request(`/api/public/v1/weather/forecast?${where}`)).body.data.forecast;
    const auto = (await service.request(`/api/public/v1/weather/forecast?${where}&tz=AUTO`)).body.data.forecast;
    expect(utc.timeZone).toBe("UTC");
    expect(utc.days[0].hoursCovered).toBe(expectedDays("UTC").firstDayHours);
    expect(auto.timeZone).toBe("Australia/Adelaide");
    expect(auto.days[0].hoursCovered).not.toBe(utc.days[0].hoursCovered);
  });

  it("asks MET once per point whatever the tz, since tz is not part of the cache key", async () => {
    const before = met.requests;
    const where = "lat=27.71&lon=85.31";
    for (const tz of ["auto", "UTC", "Asia/Kathmandu", "auto"]) {
      expect((await service.request(`/api/public/v1/weather/forecast?${where}&tz=${tz}`)).status).toBe(200);
    }
    expect((await credentialed(`/api/v1/weather/forecast?${where}&tz=auto`)).body.data.timeZone).toBe("Asia/Kathmandu");
    expect(met.requests - before).toBe(1);
  });

  it("resolves auto on the credentialed route from the 4-decimal point, stating it in data.timeZone", async () => {
    for (const { place, lat, lon, zone } of POINTS.filter((point) =>
      ["Kolkata", "Adelaide", "mid-Atlantic"].includes(point.place),
    )) {
      const where = `lat=${lat}&lon=${lon}&limit=10`;
      const auto = await credentialed(`/api/v1/weather/forecast?${where}&tz=auto`);
      expect(auto.status, place).toBe(200);
      expect(auto.body.data.timeZone, place).toBe(zone);
      expect(
        auto.body.data.daily.map((day: { date: string }) => day.date),
        place,
      ).toEqual(expectedDays(zone).dates.slice(0, 10));
      expect(auto.body.meta.dayCount, place).toBe(auto.body.data.daily.length);
      const named = await credentialed(`/api/v1/weather/forecast?${where}&tz=${encodeURIComponent(zone)}`);
      expect(named.body.data, place).toEqual(auto.body.data);
    }
    expect((await credentialed("/api/v1/weather/forecast?lat=22.5726&lon=88.3639")).body.data.timeZone).toBe("UTC");
  });

  it("keeps VALIDATION_FAILED for every other unknown zone, on both routes", async () => {
    for (const tz of ["Mars/Olympus", "au%20to", "automatic", "local"]) {
      const credentialedAnswer = await credentialed(`/api/v1/weather/forecast?lat=22.57&lon=88.36&tz=${tz}`);
      expect(credentialedAnswer.status, tz).toBe(400);
      expect(credentialedAnswer.body.error.code, tz).toBe("VALIDATION_FAILED");
      const publicAnswer = await service.request(`/api/public/v1/weather/forecast?lat=22.57&lon=88.36&tz=${tz}`);
      expect(publicAnswer.status, tz).toBe(400);
      expect(publicAnswer.body.error.code, tz).toBe("VALIDATION_FAILED");
    }
  });
});
