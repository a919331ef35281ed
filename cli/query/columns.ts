/** What `service query` shows per subcommand: which list in `data` holds the rows, and the columns of its table. */

type Row = Record<string, unknown>;
export interface QueryView {
  rows(data: Row): Row[];
  columns: Record<string, (row: Row) => unknown>;
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

export const QUERY_VIEWS: Record<string, QueryView> = {
  events: { rows: (data) => data.entries as Row[], columns: eventColumns },
  calendar: {
    rows: (data) => (data.days as { entries: Row[] }[]).flatMap((day) => day.entries),
    columns: eventColumns,
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
  },
  observations: {
    rows: (data) => data.observations as Row[],
    columns: {
      period: get("referencePeriod"),
      value: get("value"),
      status: get("publicationStatus"),
      revisions: get("revisionCount"),
      previous: get("previousValue"),
    },
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
  },
  indicators: {
    rows: (data) => data.indicators as Row[],
    columns: { slug: get("slug"), category: get("category"), name: get("name") },
  },
};
