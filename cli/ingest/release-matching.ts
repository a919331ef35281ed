import type { Registry, Release } from "../../schemas/registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";
import { uncuratedReleaseRecord, uncuratedSlug } from "./uncurated-releases.ts";

/** The release a calendar record announces: the registry's, or one of its own built from the source (`curated: false`). */
interface ResolvedRelease {
  release: Release;
  curated: boolean;
}

export type ReleaseResolver = (source: CalendarSource, title: string) => ResolvedRelease;

/**
 * Maps a calendar source's event title onto the release of our registry it announces (by the releases' title
 * patterns), else onto an uncurated release derived from the title: every record of a calendar is an event.
 */
export function createReleaseResolver(registry: Registry): ReleaseResolver {
  const compiled = registry.releases.map((release) => ({
    release,
    patterns: Object.fromEntries(
      Object.entries(release.titlePatterns).map(([source, patterns]) => [
        source,
        patterns.map((pattern) => new RegExp(pattern, "i")),
      ]),
    ),
  }));
  const curatedSlugs = new Set(registry.releases.map((release) => release.slug));
  // Calendars repeat a release's title every period and every snapshot, so each distinct title is matched once.
  const resolved = new Map<string, ResolvedRelease>();
  return (source, title) => {
    const key = `${source}\n${title}`;
    let known = resolved.get(key);
    if (!known) {
      const curated = compiled.find(({ patterns }) =>
        patterns[source]?.some((pattern) => pattern.test(title)),
      )?.release;
      known = curated
        ? { release: curated, curated: true }
        : {
            release: uncuratedReleaseRecord({ slug: uncuratedSlug(source, title, curatedSlugs), name: title, source }),
            curated: false,
          };
      resolved.set(key, known);
    }
    return known;
  };
}

/** Every release an announcement title names (by the releases' news title patterns): one is a match, several are ambiguous. */
export function createNewsReleaseMatcher(registry: Registry): (title: string) => Release[] {
  const compiled = registry.releases.map((release) => ({
    release,
    patterns: (release.newsTitlePatterns ?? []).map((pattern) => new RegExp(pattern, "i")),
  }));
  return (title) =>
    compiled.filter(({ patterns }) => patterns.some((pattern) => pattern.test(title))).map(({ release }) => release);
}
