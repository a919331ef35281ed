import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MET_STANDIN_NOTICE } from "../../cli/demo/met-standin.ts";
import {
  MET_ATTRIBUTION,
  MET_SOURCE,
  provenanceOf,
  STANDIN_ATTRIBUTION,
  STANDIN_SOURCE,
} from "../../server/weather/provenance.ts";
import { type LongRunningCli, startCli } from "../support/long-running-cli.ts";
import { runCli } from "../support/run-cli.ts";

const FORECAST_PATH = "/weatherapi/locationforecast/2.0/complete";
const HOUR_MS = 3_600_000;
const startOfHour = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;
const URL_LINE = /^stand-in MET listening on (http:\/\/\S+)$/m;

describe("service demo-met", () => {
  const started: LongRunningCli[] = [];
  const start = (args: string[], env?: Record<string, string>) => {
    const cli = startCli(args, env);
    started.push(cli);
    return cli;
  };
  // A failed assertion must not leave a server running behind the suite.
  afterEach(async () => {
    await Promise.all(started.splice(0).map((cli) => cli.stop("SIGKILL")));
  });

  it("prints its URL and the next command, answers any point with that point and the current hour, labelled, and stops cleanly on SIGTERM", async () => {
    const demo = start(["demo-met", "--port", "0"]);
    const [, url] = await demo.waitForStdout(URL_LINE);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/);
    expect(demo.stdout()).toContain(`SERVICE_WEATHER_BASE_URL=${url} npx service serve --seed-samples`);
    expect(demo.stdout()).toMatch(/NOT REAL WEATHER/);

    for (const [lat, lon] of [
      ["59.9139", "10.7522"],
      ["-33.8688", "151.2093"],
    ] as const) {
      const before = Date.now();
      const response = await fetch(`${url}${FORECAST_PATH}?lat=${lat}&lon=${lon}`, {
        headers: { "user-agent": "demo-met-test" },
      });
      const after = Date.now();
      expect(response.status).toBe(200);
      expect(response.headers.get("x-standin-notice")).toMatch(/^NOT REAL WEATHER/);
      const document = await response.json();
      expect(document.geometry.coordinates.slice(0, 2)).toEqual([Number(lon), Number(lat)]);
      expect(document.properties.meta.notice).toMatch(/^NOT REAL WEATHER/);

      // The first step is the hour the request was answered in (either side of an hour boundary crossed meanwhile).
      const first = Date.parse(document.properties.timeseries[0].time);
      expect([startOfHour(before), startOfHour(after)]).toContain(first);
      const updatedAt = Date.parse(document.properties.meta.updated_at);
      expect(updatedAt).toBeLessThanOrEqual(first);
      expect(first - updatedAt).toBeLessThan(HOUR_MS);
    }

    expect(await demo.stop("SIGTERM")).toBe(0);
    expect(demo.stderr()).toContain("stand-in MET stopped (SIGTERM)");
  });

  it("feeds the real service: the asked point is the point served, at the current hour, every answer labelled not real weather; Ctrl-C stops it cleanly", async () => {
    const demo = start(["demo-met", "--port", "0"]);
    const [, metUrl] = await demo.waitForStdout(URL_LINE);
    const dataDir = mkdtempSync(join(tmpdir(), "demo-met-"));
    const service = start(["serve", "--port", "0", "--no-storage"], {
      SERVICE_WEATHER_BASE_URL: metUrl!,
      SERVICE_DATA_DIR: dataDir,
    });
    const [, serviceUrl] = await service.waitForStdout(/listening on (http:\/\/\S+?)\/? with/);

    const before = Date.now();
    const response = await fetch(`${serviceUrl}/api/public/v1/weather/current?lat=48.86&lon=2.35`);
    const after = Date.now();
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.current.location).toMatchObject({ latitude: 48.86, longitude: 2.35 });
    expect([startOfHour(before), startOfHour(after)]).toContain(Date.parse(data.current.observedAt));

    // Every weather answer says what it is: in the records' source and attribution, and in meta.attributionRecords
    // (still MET's data and licence, under the stand-in's source id).
    const created = runCli(["keys", "create", "--scopes", "weather:read"], { SERVICE_DATA_DIR: dataDir });
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim().split("\n").at(-1)!;
    for (const path of [
      "/api/public/v1/weather/current",
      "/api/public/v1/weather/forecast",
      "/api/v1/weather/current",
      "/api/v1/weather/forecast",
    ]) {
      const answer = await fetch(`${serviceUrl}${path}?lat=48.86&lon=2.35`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(answer.status, path).toBe(200);
      const body = await answer.json();
      expect(body.meta.attributionRecords, path).toEqual([
        {
          sourceId: "met-norway-standin-not-real-weather",
          required: true,
          licenseName: "NLOD 2.0 and CC BY 4.0",
          termsUrl: "https://api.met.no/doc/TermsOfService",
          modifiedByService: true,
        },
      ]);
      const record = body.data.current;
      if (record) {
        expect(record.source.id, path).toBe("met-norway-standin-not-real-weather");
        expect(record.source.name, path).toMatch(/^NOT REAL WEATHER: a local stand-in for MET Norway/);
        expect(record.attribution.text, path).toMatch(/^NOT REAL WEATHER .*Based on data from MET Norway$/);
      }
    }

    await service.stop("SIGTERM");
    expect(await demo.stop("SIGINT")).toBe(0);
    expect(demo.stderr()).toContain("stand-in MET stopped (SIGINT)");
  });

  it("refuses a bad port with a one-line message and exit code 2", () => {
    for (const port of ["eighty", "65536", "-1"]) {
      const result = runCli(["demo-met", "--port", port]);
      expect(result.status, port).toBe(2);
      expect(result.stderr, port).toBe(
        "configuration error: --port must be an integer from 0 to 65535\n(run with --help for usage)\n",
      );
    }
  });

  it("labels only documents that carry the stand-in's notice: MET's own documents keep MET as their source", () => {
    expect(provenanceOf({ updated_at: "2026-11-21T12:00:00Z", units: {} })).toEqual({
      source: MET_SOURCE,
      attribution: MET_ATTRIBUTION,
    });
    expect(provenanceOf({ notice: "a note about something else" }).source).toBe(MET_SOURCE);
    expect(provenanceOf({ notice: MET_STANDIN_NOTICE })).toEqual({
      source: STANDIN_SOURCE,
      attribution: STANDIN_ATTRIBUTION,
    });
  });
});
