import type { Registry, Release } from "../../schemas/registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";

/** Maps a calendar source's event title onto the release of our registry it announces, or null. */
export function createReleaseMatcher(registry: Registry): (source: CalendarSource, title: string) => Release | null {
  const compiled = registry.releases.map((release) => ({
    release,
    patterns: Object.fromEntries(Object.entries(release.titlePatterns).map(([source, patterns]) => [source, patterns.map((pattern) => new RegExp(pattern, "i"))])),
  }));
  return (source, title) => compiled.find(({ patterns }) => patterns[source]?.some((pattern) => pattern.test(title)))?.release ?? null;
}
