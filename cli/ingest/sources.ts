import type { DateTime } from "luxon";
import type { Registry, UpstreamSeriesId } from "../../schemas/registry.ts";
import type { CalendarSource, NewsFeed, ObservationApi } from "../../schemas/vocabularies.ts";
import type { LimitedRequest } from "../../server/upstream/fetch-limited.ts";
import { parseBlsNewsAtom } from "./adapters/bls-news-atom.ts";
import { parseBlsObservations } from "./adapters/bls-observations.ts";
import { parseBlsReleaseSchedule } from "./adapters/bls-release-schedule.ts";
import { parseEcbCsvdata } from "./adapters/ecb-csvdata.ts";
import { parseEcbMeetingsCalendar } from "./adapters/ecb-meetings-calendar.ts";
import { parseEcbPressRss } from "./adapters/ecb-press-rss.ts";
import { parseEcbSdmxJson } from "./adapters/ecb-sdmx-json.ts";
import { parseEcbStatisticalCalendar } from "./adapters/ecb-statistical-calendar.ts";
import { parseEurostatJsonStat } from "./adapters/eurostat-json-stat.ts";
import { parseEurostatReleaseCalendar } from "./adapters/eurostat-release-calendar.ts";
import { parseEurostatSdmxCsv } from "./adapters/eurostat-sdmx-csv.ts";
import type {
  CalendarSnapshot,
  SkippedRecord,
  SourceAnnouncement,
  SourceObservation,
  UpstreamSource,
} from "./records.ts";

/** Base URLs (scheme and host) by upstream id, from configuration; paths and queries stay the publisher's own. */
export type UpstreamHosts = Record<"bls-www" | "bls-api" | "eurostat" | "ecb-www" | "ecb-data", string>;

export interface RequestContext {
  hosts: UpstreamHosts;
  registry: Registry;
  now: DateTime;
  blsApiKey: string | null;
}

interface SourceBase<Slug extends UpstreamSource> {
  slug: Slug;
  /** File extension of its archived documents. */
  extension: string;
  requests(context: RequestContext): LimitedRequest[];
}

export interface CalendarSourceDefinition extends SourceBase<CalendarSource> {
  kind: "calendar";
  parse(body: Buffer, retrievedAt: string): CalendarSnapshot;
}

export interface ObservationSourceDefinition extends SourceBase<ObservationApi> {
  kind: "observations";
  parse(body: Buffer): SourceObservation[];
}

export interface NewsSourceDefinition extends SourceBase<NewsFeed> {
  kind: "news";
  parse(body: Buffer): { items: SourceAnnouncement[]; skipped: SkippedRecord[] };
}

export type SourceDefinition = CalendarSourceDefinition | ObservationSourceDefinition | NewsSourceDefinition;

/** The publisher series to fetch from one API: those of active series, and those active derived series read as input. */
const upstreamsOf = (registry: Registry, api: string): UpstreamSeriesId[] =>
  registry.series
    .filter((series) => series.active)
    .flatMap((series) => [series.upstream, series.derived?.inputUpstream ?? null])
    .filter((upstream): upstream is UpstreamSeriesId => upstream !== null && upstream.api === api);
const startYear = (now: DateTime) => now.year - 3;
/** Whether a value document is JSON (its first non-blank byte is `{`) rather than CSV. */
const isJsonDocument = (body: Buffer) => /^\s*\{/.test(body.subarray(0, 64).toString("latin1"));

/**
 * Every upstream of economics ingestion: calendars first, then values, then announcements, so that values and
 * notices arriving later in a run can confirm the events the same run has just placed.
 */
export const SOURCES: SourceDefinition[] = [
  {
    slug: "labour-stats-release-schedule",
    kind: "calendar",
    extension: "ics",
    requests: ({ hosts }) => [{ url: `${hosts["bls-www"]}/schedule/news_release/bls.ics` }],
    parse: (body) => parseBlsReleaseSchedule(body),
  },
  {
    slug: "eu-stats-release-calendar",
    kind: "calendar",
    extension: "json",
    requests: ({ hosts, now }) => {
      const query = new URLSearchParams({
        start: now.minus({ days: 31 }).toUTC().toISO({ suppressMilliseconds: true })!,
        end: now.plus({ days: 366 }).toUTC().toISO({ suppressMilliseconds: true })!,
        isEuroindicator: "true",
        timeZone: "Europe/Luxembourg",
      });
      return [{ url: `${hosts.eurostat}/eurostat/o/calendars/eventsJson?${query}` }];
    },
    parse: (body, retrievedAt) => parseEurostatReleaseCalendar(body, retrievedAt),
  },
  {
    slug: "central-bank-meetings-calendar",
    kind: "calendar",
    extension: "html",
    requests: ({ hosts }) => [{ url: `${hosts["ecb-www"]}/press/calendars/mgcgc/html/index.en.html` }],
    parse: (body) => parseEcbMeetingsCalendar(body),
  },
  {
    slug: "central-bank-statistics-calendar",
    kind: "calendar",
    extension: "html",
    requests: ({ hosts }) => [{ url: `${hosts["ecb-www"]}/press/calendars/statscal/html/index.en.html` }],
    parse: (body) => parseEcbStatisticalCalendar(body),
  },
  {
    slug: "bls-api",
    kind: "observations",
    extension: "json",
    requests: ({ hosts, registry, now, blsApiKey }) => {
      const ids = upstreamsOf(registry, "bls-api").map((upstream) => upstream.id);
      if (ids.length === 0) return [];
      const body = {
        seriesid: ids,
        startyear: String(startYear(now)),
        endyear: String(now.year),
        ...(blsApiKey ? { registrationkey: blsApiKey } : {}),
      };
      return [
        {
          url: `${hosts["bls-api"]}/publicAPI/v2/timeseries/data/`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        },
      ];
    },
    parse: (body) => parseBlsObservations(body),
  },
  {
    slug: "eurostat-sdmx",
    kind: "observations",
    extension: "csv",
    requests: ({ hosts, registry, now }) =>
      upstreamsOf(registry, "eurostat-sdmx").map((upstream) => ({
        url: `${hosts.eurostat}/eurostat/api/dissemination/sdmx/2.1/data/${upstream.id}/${upstream.key ?? ""}?format=SDMX-CSV&startPeriod=${startYear(now)}`,
      })),
    // Live requests ask for SDMX-CSV (values as text); an archived JSON-stat answer of the Statistics API replays too.
    parse: (body) => (isJsonDocument(body) ? parseEurostatJsonStat(body) : parseEurostatSdmxCsv(body)),
  },
  {
    slug: "ecb-data",
    kind: "observations",
    extension: "csv",
    requests: ({ hosts, registry, now }) =>
      upstreamsOf(registry, "ecb-data").map((upstream) => {
        const [flow, ...key] = upstream.id.split(".");
        return {
          url: `${hosts["ecb-data"]}/service/data/${flow}/${key.join(".")}?format=csvdata&startPeriod=${startYear(now)}`,
        };
      }),
    // Live requests ask for csvdata; an archived SDMX-JSON answer of the portal (format=jsondata) replays too.
    parse: (body) => (isJsonDocument(body) ? parseEcbSdmxJson(body) : parseEcbCsvdata(body)),
  },
  {
    slug: "bls-news-feed",
    kind: "news",
    extension: "xml",
    requests: ({ hosts }) => [{ url: `${hosts["bls-www"]}/feed/bls_latest.rss` }],
    parse: (body) => parseBlsNewsAtom(body),
  },
  {
    slug: "ecb-press-feed",
    kind: "news",
    extension: "xml",
    requests: ({ hosts }) => [{ url: `${hosts["ecb-www"]}/rss/press.html` }],
    parse: (body) => parseEcbPressRss(body),
  },
];
