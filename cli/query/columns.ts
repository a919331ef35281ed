/**
 * What `service query` shows per answer: which list in `data` holds the rows, the columns of its table, which of them
 * wrap (titles, names; every other value is shown whole or its column left out) and, when a terminal is too narrow
 * for all of them, the order in which columns are kept.
 */

type Row = Record<string, unknown>;
export interface QueryView {
  rows(data: Row): Row[];
  columns: Record<string, (row: Row) => unknown>;
  wraps: string[];
  keep: string[];
}

const get =
  (path: string) =>
  (row: Row): unknown =>
    path.split(".").reduce<unknown>((value, key) => (value as Row | null | undefined)?.[key], row);
const eventColumns = {
  date: get("scheduledDate"),
  time: get("scheduledAt"),
  local: (row: Row) => [row.localDate, row.localTime].filter(Boolean).join(" "),
  release: get("release.slug"),
  period: get("referencePeriod.code"),
  status: get("status"),
  state: get("derivedState"),
  title: get("title"),
};
// The date stays beside the time for the events announced without one.
const eventKeep = ["time", "title", "date", "local", "release", "status", "state", "period"];

const observationColumns = {
  period: get("referencePeriod"),
  value: get("value"),
  status: get("publicationStatus"),
  revisions: get("revisionCount"),
  previous: get("previousValue"),
};

export const QUERY_VIEWS = {
  events: { rows: (data) => data.entries as Row[], columns: eventColumns, wraps: ["title"], keep: eventKeep },
  calendar: {
    rows: (data) => (data.days as { entries: Row[] }[]).flatMap((day) => day.entries),
    columns: eventColumns,
    wraps: ["title"],
    keep: eventKeep,
  },
  releases: {
    rows: (data) => data.releases as Row[],
    columns: {
      series: get("series.slug"),
      period: get("referencePeriod.code"),
      value: get("value"),
      status: get("publicationStatus"),
      revisions: get("revision.count"),
      ingested: get("ingestedAt"),
    },
    wraps: [],
    keep: ["series", "period", "value", "status", "ingested", "revisions"],
  },
  observations: {
    rows: (data) => data.observations as Row[],
    columns: observationColumns,
    wraps: [],
    keep: Object.keys(observationColumns),
  },
  /** `observations --as-of`: each period as the service held it then, with the vintage and when it was recorded. */
  observationsAsOf: {
    rows: (data) => data.observations as Row[],
    columns: { ...observationColumns, vintage: get("vintage"), recorded: get("recordedAt") },
    wraps: [],
    keep: ["period", "value", "vintage", "recorded", "status", "revisions", "previous"],
  },
  /** `observations --vintages`: one row per vintage of each period, oldest first. */
  observationVintages: {
    rows: (data) =>
      (data.periods as { referencePeriod: string; vintages: Row[] }[]).flatMap((period) =>
        period.vintages.map((vintage) => ({ referencePeriod: period.referencePeriod, ...vintage })),
      ),
    columns: {
      period: get("referencePeriod"),
      vintage: get("sequence"),
      value: get("value"),
      status: get("publicationStatus"),
      recorded: get("recordedAt"),
      run: get("runId"),
    },
    wraps: [],
    keep: ["period", "vintage", "value", "recorded", "status", "run"],
  },
  series: {
    rows: (data) => data.series as Row[],
    columns: {
      slug: get("slug"),
      family: get("family"),
      where: (row) => row.country ?? row.region,
      frequency: get("frequency"),
      unit: get("unit.code"),
      upstream: get("upstreamSeriesId"),
    },
    wraps: [],
    keep: ["slug", "family", "where", "frequency", "unit", "upstream"],
  },
  indicators: {
    rows: (data) => data.indicators as Row[],
    columns: { slug: get("slug"), category: get("category"), name: get("name") },
    wraps: ["name"],
    keep: ["slug", "name", "category"],
  },
} satisfies Record<string, QueryView>;

export type QueryViewName = keyof typeof QUERY_VIEWS;
