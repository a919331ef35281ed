import { describe, expect, it } from "vitest";
import { parseMetDocument } from "../../server/weather/met-document.ts";
import { loadMetFixture, MET_FIXTURES } from "./met-fixtures.ts";

/** How every refusal of a document begins. */
const INVALID = /^MET document is invalid: /;

/** Runs the parser on a Berlin body changed by `edit`, and returns the error it throws. */
function rejectionOf(edit: (body: any) => void): unknown {
  const body = loadMetFixture("complete-berlin-2022-08-02");
  edit(body);
  try {
    parseMetDocument(body);
  } catch (error) {
    return error;
  }
  throw new Error("the document was accepted");
}

describe("parseMetDocument", () => {
  it.each(MET_FIXTURES)("accepts the recorded %s response", (name) => {
    const body = loadMetFixture(name);
    expect(parseMetDocument(body)).toBe(body);
  });

  it("accepts steps where the provider left out measurements and periods", () => {
    const body = loadMetFixture("complete-london-2020-07-20");
    const first = body.properties.timeseries[0].data;
    first.instant.details = {};
    delete first.next_1_hours.details;
    delete first.next_6_hours.summary;
    delete first.next_12_hours;
    expect(() => parseMetDocument(body)).not.toThrow();
  });

  it("accepts a point without an altitude", () => {
    const body = loadMetFixture("compact-oslo-2026-02-06");
    body.geometry.coordinates = [10.7522, 59.9139];
    expect(() => parseMetDocument(body)).not.toThrow();
  });

  it.each<[string, (body: any) => void]>([
    [
      "no timeseries",
      (body) => {
        delete body.properties.timeseries;
      },
    ],
    [
      "an empty timeseries",
      (body) => {
        body.properties.timeseries = [];
      },
    ],
    [
      "no instant on a step",
      (body) => {
        delete body.properties.timeseries[3].data.instant;
      },
    ],
    [
      "a temperature sent as a string",
      (body) => {
        body.properties.timeseries[0].data.instant.details.air_temperature = "25.4";
      },
    ],
    [
      "a precipitation amount of null",
      (body) => {
        body.properties.timeseries[0].data.next_1_hours.details.precipitation_amount = null;
      },
    ],
    [
      "a symbol code that is a number",
      (body) => {
        body.properties.timeseries[0].data.next_6_hours.summary.symbol_code = 3;
      },
    ],
    [
      "coordinates that are not numbers",
      (body) => {
        body.geometry.coordinates = ["13", "53.5"];
      },
    ],
    [
      "a latitude out of range",
      (body) => {
        body.geometry.coordinates = [13, 153.5, 61];
      },
    ],
    [
      "another GeoJSON type",
      (body) => {
        body.type = "FeatureCollection";
      },
    ],
    [
      "an updated_at that is no time",
      (body) => {
        body.properties.meta.updated_at = "yesterday";
      },
    ],
    [
      "a step time without an offset",
      (body) => {
        body.properties.timeseries[0].time = "2022-08-02T16:00:00";
      },
    ],
    [
      "a step time written with a space",
      (body) => {
        body.properties.timeseries[0].time = "2022-08-02 16:00:00Z";
      },
    ],
    [
      "temperatures declared in fahrenheit",
      (body) => {
        body.properties.meta.units.air_temperature = "fahrenheit";
      },
    ],
    [
      "steps out of order",
      (body) => {
        body.properties.timeseries.reverse();
      },
    ],
    [
      "the same step twice",
      (body) => {
        body.properties.timeseries[1].time = body.properties.timeseries[0].time;
      },
    ],
    [
      "a body that is not an object",
      (body) => {
        body.properties = "none";
      },
    ],
  ])("rejects %s", (_, edit) => {
    expect((rejectionOf(edit) as Error).message).toMatch(INVALID);
  });

  it("rejects things that are not documents at all", () => {
    for (const body of [null, "", [], 42]) expect(() => parseMetDocument(body)).toThrow(INVALID);
  });

  it("names the place of the problem and carries no provider value", () => {
    const error = rejectionOf((body) => {
      body.properties.timeseries[2].data.instant.details.wind_speed = "gale force";
    });
    expect((error as Error).message).toContain("/properties/timeseries/2/data/instant/details/wind_speed");
    expect((error as Error).message).not.toContain("gale force");
  });
});
