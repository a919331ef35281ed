/**
 * The CSV form of list answers (`format=csv` or `Accept: text/csv`): which rows an answer's `data` holds and which
 * columns each row has, read by the server to write the CSV, by the OpenAPI builder to describe it and by the
 * contract tests to check it. A cell is the JSON value at the column's path, written as the JSON has it: strings as
 * they are (values stay the publisher's exact decimal strings), numbers and booleans in their JSON spelling, null as
 * an empty field.
 */

type Row = Record<string, unknown>;

export interface CsvColumn {
  name: string;
  /** Dot path into the row record (`release.slug`). */
  path: string;
}

export interface CsvTable {
  /** What one row is, for the OpenAPI description. */
  row: string;
  columns: readonly CsvColumn[];
  /** The row records of an answer's `data`, in the JSON's order. */
  rows(data: Row): Row[];
}

/** A route's CSV form: its table, or one of several chosen by the answer's shape (the observations' three views). */
export interface CsvForm {
  tables: readonly CsvTable[];
  tableFor(data: Row): CsvTable;
}

export const CSV_MEDIA_TYPE = "text/csv; charset=utf-8; header=present";

/** Columns whose header is the last part of their path (`value`), or named apart (`["release", "release.slug"]`). */
const columns = (...entries: (string | [string, string])[]): CsvColumn[] =>
  entries.map((entry) =>
    typeof entry === "string"
      ? { name: entry.slice(entry.lastIndexOf(".") + 1), path: entry }
      : { name: entry[0], path: entry[1] },
  );

const single = (table: CsvTable): CsvForm => ({ tables: [table], tableFor: () => table });
const list = (data: Row, key: string) => (data[key] ?? []) as Row[];
/** Each item of a list with the day it is filed under (the calendars' `days[]`). */
const dayRows = (data: Row, key: string): Row[] =>
  list(data, "days").flatMap((day) => list(day, key).map((item) => ({ day: day.date, ...item })));

const provenanceColumns: [string, string][] = [
  ["derivation", "provenance.derivation"],
  ["sourceId", "provenance.sourceId"],
  ["documentSha256", "provenance.document.sha256"],
];

/** One observation per row with its series' slug: the current listing, or the vintages held at `asOf`. */
const observationColumns = columns(
  ["series", "series.slug"],
  "referencePeriod",
  "value",
  "publicationStatus",
  "publisherNote",
  "revisionCount",
  "isRevision",
  "previousValue",
  "sourceUpdatedAt",
  "ingestedAt",
  ...provenanceColumns,
);
const withSeries = (data: Row, item: Row): Row => ({ series: data.series, ...item });

const currentObservations: CsvTable = {
  row: "one reference period, its current vintage",
  columns: observationColumns,
  rows: (data) => list(data, "observations").map((item) => withSeries(data, item)),
};

const observationsAsOf: CsvTable = {
  row: "one reference period as the service held it at asOf",
  columns: [...observationColumns, ...columns("asOf", "vintage", "recordedAt")],
  rows: (data) => list(data, "observations").map((item) => ({ ...withSeries(data, item), asOf: data.asOf })),
};

const everyVintage: CsvTable = {
  row: "one vintage of one reference period (vintages=all), periods oldest first, each period's vintages oldest first",
  columns: columns(
    ["series", "series.slug"],
    "referencePeriod",
    "sequence",
    "value",
    "publicationStatus",
    "publisherNote",
    "sourceUpdatedAt",
    "recordedAt",
    "runId",
    ...provenanceColumns,
    "asOf",
  ),
  rows: (data) =>
    list(data, "periods").flatMap((period) =>
      list(period, "vintages").map((item) => ({
        series: data.series,
        asOf: data.asOf,
        referencePeriod: period.referencePeriod,
        ...item,
      })),
    ),
};

export const PUBLIC_OBSERVATIONS_CSV = single(currentObservations);

export const SERIES_OBSERVATIONS_CSV: CsvForm = {
  tables: [currentObservations, observationsAsOf, everyVintage],
  tableFor: (data) => ("periods" in data ? everyVintage : "asOf" in data ? observationsAsOf : currentObservations),
};

export const RELEASES_CSV = single({
  row: "one reference period of one series (perSeries newest periods, newest first; a series without values is one row with availability UNAVAILABLE and empty period and value); publishedAt and ingestedAt are stated for the newest period only",
  columns: columns(
    ["series", "series.slug"],
    ["family", "series.family"],
    ["country", "series.country"],
    ["region", "series.region"],
    ["frequency", "series.frequency"],
    ["unit", "series.unit.code"],
    ["unitScale", "series.unit.scale"],
    ["seasonalAdjustment", "series.seasonalAdjustment"],
    ["transformation", "series.transformation"],
    "availability",
    ["referencePeriod", "period.referencePeriod"],
    ["value", "period.value"],
    ["publicationStatus", "period.publicationStatus"],
    ["publisherNote", "period.publisherNote"],
    ["revisionCount", "period.revisionCount"],
    ["derivation", "period.provenance.derivation"],
    ["sourceId", "period.provenance.sourceId"],
    "publishedAt",
    "ingestedAt",
    ["attribution", "attribution.text"],
  ),
  rows: (data) =>
    list(data, "releases").flatMap((release): Row[] => {
      const periods = list(release, "periods");
      if (periods.length === 0) return [{ ...release, period: null }];
      return periods.map((period, index) =>
        index === 0 ? { ...release, period } : { ...release, period, publishedAt: null, ingestedAt: null },
      );
    }),
});

/** The fields of an event every calendar form shares, before its local projection. */
const eventColumns = columns(
  "id",
  "title",
  ["release", "release.slug"],
  ["publisher", "release.publisher"],
  "country",
  "region",
  "currency",
  "category",
  ["referencePeriod", "referencePeriod.code"],
  "scheduledDate",
  "scheduledAt",
  "timePrecision",
  "sourceTimezone",
);
const eventTail = columns(
  "status",
  "derivedState",
  "importance",
  ["releasedAt", "publication.releasedAt"],
  ["confirmed", "publication.confirmed"],
  ["valueAvailability", "values.availability"],
  ["actualSeries", "values.actual.seriesSlug"],
  ["actualPeriod", "values.actual.referencePeriod"],
  ["actualValue", "values.actual.value"],
  ["previousPeriod", "values.previous.referencePeriod"],
  ["previousValue", "values.previous.value"],
  ["officialPageUrl", "release.officialPageUrl"],
  ["attribution", "attribution.text"],
);
const credentialedLocal = columns("localDate", "localTime", "localTimeZone");

export const EVENTS_CSV = single({
  row: "one event, scheduled date ascending (local columns empty without tz or timezone)",
  columns: [...eventColumns, ...credentialedLocal, ...eventTail],
  rows: (data) => list(data, "entries"),
});

export const CREDENTIALED_CALENDAR_CSV = single({
  row: "one event, with the local day it is grouped under (day), days ascending",
  columns: [...columns("day"), ...eventColumns, ...credentialedLocal, ...eventTail],
  rows: (data) => dayRows(data, "entries"),
});

export const PUBLIC_CALENDAR_CSV = single({
  row: "one event, with the day it is grouped under (day), days ascending (local columns empty without tz)",
  columns: [
    ...columns("day"),
    ...eventColumns,
    ...columns(["localDate", "local.date"], ["localTime", "local.time"], ["localTimeZone", "local.timeZone"]),
    ...eventTail,
  ],
  rows: (data) => dayRows(data, "events"),
});

/** The value at a dot path, undefined where a step is missing or null. */
export function valueAt(row: Row, path: string): unknown {
  let value: unknown = row;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Row)[key];
  }
  return value;
}

/** A cell as the JSON states the value: null (or absent) is an empty field. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
