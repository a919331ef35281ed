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

/** Every release an announcement title names (by the releases' news title patterns): one is a match, several are ambiguous. */
export function createNewsReleaseMatcher(registry: Registry): (title: string) => Release[] {
  const compiled = registry.releases.map((release) => ({ release, patterns: (release.newsTitlePatterns ?? []).map((pattern) => new RegExp(pattern, "i")) }));
  return (title) => compiled.filter(({ patterns }) => patterns.some((pattern) => pattern.test(title))).map(({ release }) => release);
}
