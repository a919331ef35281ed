import type Database from "better-sqlite3";
import type { EventValueRecord } from "../../schemas/event-record.ts";
import type { Registry } from "../../schemas/registry.ts";
import { provenanceOf } from "../../schemas/value-provenance.ts";
import type { ValueLookup } from "./event-record.ts";
import { releaseStartsAt, releaseVintage, vintageRecordedAt } from "./release-vintage.ts";
import type { StoredEvent, StoredVintage } from "./store.ts";

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
 * (release-vintage.ts) with the later vintages as its revisions, `before` the previous period as that release left it.
 * Registered series only, with the vintages of their own kind (as `writeServedObservations` serves them). Primary-key
 * seeks.
 */
export function releaseValueLookup(db: Database.Database, registry: Registry): (event: StoredEvent) => ValueLookup {
  const derivationOf = new Map(
    registry.series.map((series) => [series.slug, series.derived ? "SERVICE_DERIVED" : "PUBLISHER_VALUE"]),
  );
  // Only the columns a value record is made of: better-sqlite3 builds every row object column by column.
  const vintagesOf =
    db.prepare(`SELECT ${RECORD_COLUMNS.join(", ")} FROM vintages WHERE series_slug = ? AND reference_period = ?
    AND coalesce(derivation, 'PUBLISHER_VALUE') = ? ORDER BY sequence`);
  const periodBefore = db
    .prepare(`SELECT reference_period FROM vintages WHERE series_slug = ? AND reference_period < ?
    AND length(reference_period) = length(?) AND coalesce(derivation, 'PUBLISHER_VALUE') = ? ORDER BY reference_period DESC LIMIT 1`)
    .pluck();
  const seenAt = db
    .prepare("SELECT seen_at FROM value_sightings WHERE series_slug = ? AND reference_period = ?")
    .pluck();

  const valueAt = (
    slug: string,
    period: string,
    releaseAt: string,
    fallBackToEarlier: boolean,
  ): EventValueRecord | null => {
    const derivation = derivationOf.get(slug);
    if (!derivation) return null;
    const vintages = vintagesOf.all(slug, period, derivation) as RecordVintage[];
    const seen = (seenAt.get(slug, period) as string | undefined) ?? null;
    const chosen =
      releaseVintage(vintages, releaseAt, seen) ??
      (fallBackToEarlier
        ? (vintages.filter((vintage) => (vintageRecordedAt(vintage) ?? "") < releaseAt).at(-1) ?? null)
        : null);
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
      current: (slug, period) => valueAt(slug, period, releaseAt, false),
      before: (slug, period) => {
        const derivation = derivationOf.get(slug);
        const earlier = derivation
          ? (periodBefore.get(slug, period, period, derivation) as string | undefined)
          : undefined;
        return earlier ? valueAt(slug, earlier, releaseAt, true) : null;
      },
    };
  };
}
