import { afterAll, describe, expect, it } from "vitest";
import { removeEconomicsDataDirs } from "../support/economics-index.ts";
import { ALL_MARCH, edgeCaseEventsService, ID, idsOf, MARCH, sorted } from "./credentialed-events-fixtures.ts";

afterAll(removeEconomicsDataDirs);

const BLS_MARCH = [ID.employment0309, ID.ppi0310, ID.cpi0311, ID.realEarnings0311, ID.jolts0311, ID.eci0317];
const EA_MARCH = [ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312, ID.hicp0318, ID.ecbDecision0319];

const list = (count: number, make: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => make(index)).join(",");

describe("GET /api/v1/economics/events over a synthetic index", () => {
  const { events, expectError } = edgeCaseEventsService();

  describe("list filters", () => {
    it("country: case-insensitive, never matching an event filed under a region, at most 25", async () => {
      for (const country of ["US", "us", "uS", "us,de"]) {
        expect(sorted(idsOf((await events(`${MARCH}&country=${country}`)).body)), country).toEqual(sorted(BLS_MARCH));
      }
      for (const country of ["EA", "ea", "DE"]) {
        const { status, body } = await events(`${MARCH}&country=${country}`);
        expect(status).toBe(200);
        expect(body.data.entries, country).toEqual([]);
      }
      expect(
        (await events(`${MARCH}&country=US,${list(24, (index) => `X${String.fromCharCode(65 + index)}`)}`)).status,
      ).toBe(200);
      await expectError(
        `${MARCH}&country=US,${list(25, (index) => `X${String.fromCharCode(65 + index)}`)}`,
        400,
        "VALIDATION_FAILED",
      );
    });

    it("region: enum, case-insensitive, unknown refused, at most 10", async () => {
      expect(sorted(idsOf((await events(`${MARCH}&region=ea`)).body))).toEqual(sorted(EA_MARCH));
      expect(sorted(idsOf((await events(`${MARCH}&region=Ea,g7`)).body))).toEqual(sorted(EA_MARCH));
      expect((await events(`${MARCH}&region=G20`)).body.data.entries).toEqual([]);
      for (const region of ["XX", "ea,us", "euro"])
        await expectError(`${MARCH}&region=${region}`, 400, "VALIDATION_FAILED");
      expect((await events(`${MARCH}&region=${list(10, () => "EA")}`)).status).toBe(200);
      await expectError(`${MARCH}&region=${list(11, () => "EA")}`, 400, "VALIDATION_FAILED");
    });

    it("currency: case-insensitive, not validated (an unknown code matches nothing), at most 10", async () => {
      expect(sorted(idsOf((await events(`${MARCH}&currency=usd`)).body))).toEqual(sorted(BLS_MARCH));
      expect(sorted(idsOf((await events(`${MARCH}&currency=EUR`)).body))).toEqual(sorted(EA_MARCH));
      expect(sorted(idsOf((await events(`${MARCH}&currency=usd,XYZ`)).body))).toEqual(sorted(BLS_MARCH));
      const unknown = await events(`${MARCH}&currency=XYZ`);
      expect(unknown.status).toBe(200);
      expect(unknown.body.data.entries).toEqual([]);
      expect((await events(`${MARCH}&currency=${list(10, () => "USD")}`)).status).toBe(200);
      await expectError(`${MARCH}&currency=${list(11, () => "USD")}`, 400, "VALIDATION_FAILED");
    });

    it("importance: enum, case-insensitive, unknown refused, at most 4", async () => {
      expect(sorted(idsOf((await events(`${MARCH}&importance=high`)).body))).toEqual(
        sorted([ID.employment0309, ID.cpi0311, ID.hicpFlash0312, ID.unemployment0312, ID.ecbDecision0319]),
      );
      expect(sorted(idsOf((await events(`${MARCH}&importance=Low`)).body))).toEqual([ID.realEarnings0311]);
      expect((await events(`${MARCH}&importance=unclassified`)).body.data.entries).toEqual([]);
      await expectError(`${MARCH}&importance=critical`, 400, "VALIDATION_FAILED");
      expect(sorted(idsOf((await events(`${MARCH}&importance=HIGH,MEDIUM,LOW,UNCLASSIFIED`)).body))).toEqual(
        sorted(ALL_MARCH),
      );
      await expectError(`${MARCH}&importance=HIGH,MEDIUM,LOW,UNCLASSIFIED,HIGH`, 400, "VALIDATION_FAILED");
    });

    it("release: exact and case-sensitive, at most 25", async () => {
      expect(idsOf((await events(`${MARCH}&release=bls-consumer-price-index`)).body)).toEqual([ID.cpi0311]);
      for (const release of ["BLS-Consumer-Price-Index", "bls-consumer-price", "no-such-release"]) {
        const { status, body } = await events(`${MARCH}&release=${release}`);
        expect(status).toBe(200);
        expect(body.data.entries, release).toEqual([]);
      }
      expect((await events(`${MARCH}&release=${list(25, () => "bls-consumer-price-index")}`)).status).toBe(200);
      await expectError(`${MARCH}&release=${list(26, () => "bls-consumer-price-index")}`, 400, "VALIDATION_FAILED");
    });

    it("source: exact and case-sensitive, at most 10; an event matches any of its sources", async () => {
      expect(idsOf((await events(`${MARCH}&source=central-bank-meetings-calendar`)).body)).toEqual([
        ID.ecbDecision0319,
      ]);
      expect(idsOf((await events(`${MARCH}&source=central-bank-statistics-calendar`)).body)).toEqual([
        ID.ecbDecision0319,
      ]);
      expect(
        sorted(
          idsOf((await events(`${MARCH}&source=eu-stats-release-calendar,central-bank-statistics-calendar`)).body),
        ),
      ).toEqual(
        sorted([ID.unemployment0312, ID.industrialProduction0312, ID.hicpFlash0312, ID.hicp0318, ID.ecbDecision0319]),
      );
      const wrongCase = await events(`${MARCH}&source=Central-Bank-Meetings-Calendar`);
      expect(wrongCase.status).toBe(200);
      expect(wrongCase.body.data.entries).toEqual([]);
      expect((await events(`${MARCH}&source=${list(10, () => "eu-stats-release-calendar")}`)).status).toBe(200);
      await expectError(`${MARCH}&source=${list(11, () => "eu-stats-release-calendar")}`, 400, "VALIDATION_FAILED");
    });

    it("combines different filters with AND", async () => {
      expect(sorted(idsOf((await events(`${MARCH}&country=us&importance=high`)).body))).toEqual(
        sorted([ID.employment0309, ID.cpi0311]),
      );
      expect((await events(`${MARCH}&country=us&region=ea`)).body.data.entries).toEqual([]);
    });
  });
});
