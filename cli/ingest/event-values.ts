import type Database from "better-sqlite3";
import type { EventValueRecord } from "../../schemas/event-record.ts";
import { periodBefore } from "../../schemas/reference-periods.ts";
import type { Registry } from "../../schemas/registry.ts";
import { provenanceOf } from "../../schemas/value-provenance.ts";
import type { ValueLookup } from "./event-record.ts";
import type { StoredEvent, StoredVintage } from "./ledger/store.ts";
import { releaseStartsAt, releaseVintage, vintageRecordedAt } from "./release-vintage.ts";

/** The columns of a vintage that an event's value record is built from. */
const RECORD_COLUMNS = [
  "sequence",
  "value",
  "publication_status",
  "note",
  "ingested_at",
  "source",
  "adapter",
  "transformation",
  "document_sha256",
  "document_fetched_at",
] as const;
type RecordVintage = Pick<StoredVintage, (typeof RECORD_COLUMNS)[number]>;

/**
 * An event's values, read from the ledger (`db`): `current` is the vintage the event's release produced
 * (release-vintage.ts) with the later vintages as its revisions; `before` is the period immediately before the event's
 * (never an older one) as it stood when the release happened: its latest vintage recorded at or before the release's
 * instant, with the later ones as its revisions, or null when none was recorded by then. Registered series only, with
 * the vintages of their own kind (as `writeServedObservations` serves them). Primary-key seeks.
 */
export function releaseValueLookup(db: Database.Database, registry: Registry): (event: StoredEvent) => ValueLookup {
  const derivationOf = new Map(
    registry.series.map((series) => [series.slug, series.derived ? "SERVICE_DERIVED" : "PUBLISHER_VALUE"]),
  );
  // Only the columns a value record is made of: better-sqlite3 builds every row object column by column.
  const vintagesOf =
    db.prepare(`SELECT ${RECORD_COLUMNS.join(", ")} FROM vintages WHERE series_slug = ? AND reference_period = ?
    AND coalesce(derivation, 'PUBLISHER_VALUE') = ? ORDER BY sequence`);
  const seenAt = db
    .prepare("SELECT seen_at FROM value_sightings WHERE series_slug = ? AND reference_period = ?")
    .pluck();

  const valueAt = (
    slug: string,
    period: string,
    releaseAt: string,
    which: "PRODUCED" | "STANDING",
  ): EventValueRecord | null => {
    const derivation = derivationOf.get(slug);
    if (!derivation) return null;
    const vintages = vintagesOf.all(slug, period, derivation) as RecordVintage[];
    const chosen =
      which === "PRODUCED"
        ? releaseVintage(vintages, releaseAt, (seenAt.get(slug, period) as string | undefined) ?? null)
        : // A vintage of unknown recording time is not known to have stood when the release happened.
          (vintages.filter((vintage) => (vintageRecordedAt(vintage) ?? "9999") <= releaseAt).at(-1) ?? null);
    if (!chosen) return null;
    return {
      seriesSlug: slug,
      referencePeriod: period,
      value: chosen.value,
      publicationStatus: chosen.publication_status,
      publisherNote: chosen.note,
      vintage: chosen.sequence,
      recordedAt: vintageRecordedAt(chosen),
      provenance: provenanceOf({ ...chosen, derivation }),
      revisions: vintages
        .filter((vintage) => vintage.sequence > chosen.sequence)
        .map((vintage) => ({
          vintage: vintage.sequence,
          value: vintage.value,
          publicationStatus: vintage.publication_status,
          recordedAt: vintageRecordedAt(vintage),
        })),
    };
  };

  return (event) => {
    const releaseAt = releaseStartsAt(event);
    return {
      current: (slug, period) => valueAt(slug, period, releaseAt, "PRODUCED"),
      before: (slug, period) => {
        const earlier = periodBefore(period);
        return earlier ? valueAt(slug, earlier, releaseAt, "STANDING") : null;
      },
    };
  };
}
