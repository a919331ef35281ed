/**
 * Which index generation (meta.lastIngestedAt) answered, and whether answers ever went back in time. The server
 * notices a replaced index by its file identity on each request, so once any answer has shown a generation, a request
 * started after that answer arrived must never be served from an older one: that would be a kept answer or an open
 * connection outliving its file.
 */
export interface GenerationReport {
  /** Distinct generations seen in answers, oldest first, with the number of answers each. */
  seen: Array<{ lastIngestedAt: string; answers: number; firstSeenAtSeconds: number }>;
  /** Answers older than a generation an earlier, already completed answer had shown. */
  regressions: number;
  regressionExamples: string[];
}

const MAX_EXAMPLES = 10;

export function createGenerationTracker(runStartedAt: number) {
  /** Per generation: when an answer carrying it first completed (ms, performance.now() clock). */
  const firstCompleted = new Map<string, number>();
  const answers = new Map<string, number>();
  let regressions = 0;
  const regressionExamples: string[] = [];

  return {
    /** `startedAt` and `completedAt` on the performance.now() clock of the soak process. */
    record(route: string, generation: string, startedAt: number, completedAt: number): void {
      answers.set(generation, (answers.get(generation) ?? 0) + 1);
      // ISO timestamps of one format compare correctly as strings.
      for (const [newer, completed] of firstCompleted) {
        if (newer > generation && completed < startedAt) {
          regressions += 1;
          if (regressionExamples.length < MAX_EXAMPLES)
            regressionExamples.push(`${route}: ${generation} after ${newer} had been answered`);
          break;
        }
      }
      const known = firstCompleted.get(generation);
      if (known === undefined || completedAt < known) firstCompleted.set(generation, completedAt);
    },
    report(): GenerationReport {
      const seen = [...firstCompleted.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([lastIngestedAt, completed]) => ({
          lastIngestedAt,
          answers: answers.get(lastIngestedAt) ?? 0,
          firstSeenAtSeconds: Math.round((completed - runStartedAt) / 100) / 10,
        }));
      return { seen, regressions, regressionExamples };
    },
  };
}

export type GenerationTracker = ReturnType<typeof createGenerationTracker>;
