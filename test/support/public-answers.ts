// What the public calendar and releases tests read of their answers: the paths, the shapes and how to index them.
import { readFileSync } from "node:fs";
import type { Series } from "../../schemas/registry.ts";

export const CALENDAR = "/api/public/v1/economics/calendar";
export type PublicEvent = Record<string, any> & { id: string; scheduledDate: string };
export type Day = { date: string; events: PublicEvent[] };
export const flatten = (days: Day[]) => days.flatMap((day) => day.events);
export const idsOf = (body: any): string[] => flatten(body.data.days).map((event) => event.id);

export const RELEASES = "/api/public/v1/economics/releases";
export type Release = Record<string, any> & { series: { slug: string }; availability: string };
export const bySlug = (body: any) =>
  new Map<string, Release>(body.data.releases.map((release: Release) => [release.series.slug, release]));

/** The package's registered series, and the active ones among them. */
export const REGISTRY_SERIES = JSON.parse(
  readFileSync(new URL("../../data/registry/series.json", import.meta.url), "utf8"),
) as Series[];
export const ACTIVE = REGISTRY_SERIES.filter((series) => series.active);
