import type { Static } from "../../schemas/json-schema.ts";
import { type AttributedPublisher, PUBLISHER_TERMS } from "../../schemas/publishers.ts";
import type { attributionRecordSchema } from "../../schemas/responses/envelope.ts";
import { StaticMeta } from "./route-handler.ts";

/** One entry of `meta.attributionRecords` (spec "Success envelope"). */
export type AttributionRecord = Static<typeof attributionRecordSchema>;

/** The table's order: the same publishers always give the same bytes. */
const ORDER = Object.keys(PUBLISHER_TERMS) as AttributedPublisher[];

/** The publishers whose data an answer carries, each with whether the service transformed or derived any of it. */
export class PublisherSet {
  private readonly modified = new Map<AttributedPublisher, boolean>();

  add(publisher: AttributedPublisher, modifiedByService = false): this {
    this.modified.set(publisher, this.modified.get(publisher) === true || modifiedByService);
    return this;
  }

  /** The set's `meta.attributionRecords`, one per publisher. */
  records(): readonly AttributionRecord[] {
    return Object.freeze(
      ORDER.filter((publisher) => this.modified.has(publisher)).map((publisher) =>
        attributionRecord(publisher, this.modified.get(publisher)!),
      ),
    );
  }
}

/** One publisher's record, for routes that always serve exactly that publisher's data. */
export function attributionRecord(publisher: AttributedPublisher, modifiedByService: boolean): AttributionRecord {
  const { sourceId, required, licenseName, termsUrl } = PUBLISHER_TERMS[publisher];
  return Object.freeze({ sourceId, required, licenseName, termsUrl, modifiedByService });
}

/** `meta.attributionRecords: []` serialised once, for answers that serve no publisher's data. */
export const NO_ATTRIBUTION = new StaticMeta({ attributionRecords: new PublisherSet().records() });
