import type { Registry, Release } from "../../schemas/registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";

/** Maps a calendar source's event title onto the release of our registry it announces, or null. */
export function createReleaseMatcher(registry: Registry): (source: CalendarSource, title: string) => Release | null {
  const compiled = registry.releases.map((release) => ({
    release,
    patterns: Object.fromEntries(Object.entries(release.titlePatterns).map(([source, patterns]) => [source, patterns.map((pattern) => new RegExp(pattern, "i"))])),
  }));
  // Calendars repeat a release's title every period and every snapshot, so each distinct title is matched once.
  const matched = new Map<string, Release | null>();
  return (source, title) => {
    const key = `${source}\n${title}`;
    if (!matched.has(key)) matched.set(key, compiled.find(({ patterns }) => patterns[source]?.some((pattern) => pattern.test(title)))?.release ?? null);
    return matched.get(key)!;
  };
}

/** Every release an announcement title names (by the releases' news title patterns): one is a match, several are ambiguous. */
export function createNewsReleaseMatcher(registry: Registry): (title: string) => Release[] {
  const compiled = registry.releases.map((release) => ({ release, patterns: (release.newsTitlePatterns ?? []).map((pattern) => new RegExp(pattern, "i")) }));
  return (title) => compiled.filter(({ patterns }) => patterns.some((pattern) => pattern.test(title))).map(({ release }) => release);
}
