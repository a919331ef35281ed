import { describe, expect, it } from "vitest";
import { type AttributedPublisher, PUBLISHER_TERMS, SOURCE_PUBLISHERS } from "../../schemas/publishers.ts";
import { attributionRecordSchema } from "../../schemas/responses/envelope.ts";
import { createValidator } from "../../schemas/validator.ts";
import { CALENDAR_SOURCES, NEWS_FEEDS, OBSERVATION_APIS, PUBLISHERS } from "../../schemas/vocabularies.ts";
import { NO_ATTRIBUTION, PublisherSet } from "../../server/http/attribution-records.ts";

describe("the table of publisher terms", () => {
  const validate = createValidator().compile(attributionRecordSchema);

  it("gives every publisher a record valid against the contract, with distinct source ids", () => {
    const publishers = Object.keys(PUBLISHER_TERMS) as AttributedPublisher[];
    for (const publisher of publishers) {
      expect(validate(new PublisherSet().add(publisher).records()[0]), publisher).toBe(true);
    }
    expect(new Set(publishers.map((publisher) => PUBLISHER_TERMS[publisher].sourceId)).size).toBe(publishers.length);
    expect(publishers).toEqual(expect.arrayContaining([...PUBLISHERS]));
  });

  it("names the economics publishers by the codes their data carries", () => {
    for (const publisher of PUBLISHERS) expect(PUBLISHER_TERMS[publisher].sourceId).toBe(publisher);
  });

  it("knows the publisher behind every economics source slug", () => {
    expect(Object.keys(SOURCE_PUBLISHERS).sort()).toEqual(
      [...CALENDAR_SOURCES, ...OBSERVATION_APIS, ...NEWS_FEEDS].sort(),
    );
    expect(SOURCE_PUBLISHERS["labour-stats-release-schedule"]).toBe("BLS");
    expect(SOURCE_PUBLISHERS["eu-stats-release-calendar"]).toBe("EUROSTAT");
    expect(SOURCE_PUBLISHERS["central-bank-meetings-calendar"]).toBe("ECB");
  });
});

describe("PublisherSet", () => {
  it("gives one record per publisher in the table's order, whatever the order rows arrive in", () => {
    const records = new PublisherSet().add("ECB").add("BLS").add("ECB").add("EUROSTAT").records();
    expect(records.map((record) => record.sourceId)).toEqual(["BLS", "EUROSTAT", "ECB"]);
  });

  it("marks a publisher modified when any of its rows was, and only that publisher", () => {
    const records = new PublisherSet().add("BLS", true).add("BLS", false).add("ECB", false).records();
    expect(records.map((record) => [record.sourceId, record.modifiedByService])).toEqual([
      ["BLS", true],
      ["ECB", false],
    ]);
    const terms = PUBLISHER_TERMS.BLS;
    expect(records[0]).toEqual({
      sourceId: "BLS",
      required: terms.required,
      licenseName: terms.licenseName,
      termsUrl: terms.termsUrl,
      modifiedByService: true,
    });
  });

  it("gives an empty list for no publisher", () => {
    expect(new PublisherSet().records()).toEqual([]);
    expect(NO_ATTRIBUTION.members).toBe(`"attributionRecords":[]`);
  });
});
