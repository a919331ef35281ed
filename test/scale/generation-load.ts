import { join } from "node:path";
import Database from "better-sqlite3";
import { assertContract } from "../support/contract.ts";

/** The series and period whose value tells the generations apart (the revised sample copy changes every value). */
export const PROBE_SERIES = "us-cpi-all-items-sa";
export const PROBE_PERIOD = "2021-07";
export const PROBE_PATH = `/api/v1/economics/series/${PROBE_SERIES}/observations?from=${PROBE_PERIOD}&limit=1`;

/** What one generation answers for the probe: its ingestion time with the value and revision count it stores. */
export interface GenerationFacts {
  lastIngestedAt: string;
  value: string;
  revisionCount: number;
}

/** Read straight from a published index file: the truth each instance's answers are held to. */
export function generationFacts(dataDir: string): GenerationFacts {
  const index = new Database(join(dataDir, "index.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const lastIngestedAt = index
      .prepare("SELECT value FROM publication WHERE key = 'lastIngestedAt'")
      .pluck()
      .get() as string;
    const row = index
      .prepare("SELECT value, revision_count FROM observations WHERE series_slug = ? AND reference_period = ?")
      .get(PROBE_SERIES, PROBE_PERIOD) as { value: string; revision_count: number };
    return { lastIngestedAt, value: row.value, revisionCount: row.revision_count };
  } finally {
    index.close();
  }
}

export interface ProbeAnswer {
  instance: number;
  worker: number;
  startedAt: number;
  endedAt: number;
  status: number;
  /** Null for an answer that is not a complete 200 breaking no contract. */
  facts: GenerationFacts | null;
  failure?: string;
}

/** Asks one instance for the probe once, checks the body against its JSON Schema, and reads the generation it shows. */
export async function askProbe(baseUrl: string, apiKey: string): Promise<Omit<ProbeAnswer, "instance" | "worker">> {
  const startedAt = performance.now();
  try {
    const url = new URL(PROBE_PATH, baseUrl);
    const response = await fetch(url, { headers: { "x-api-key": apiKey } });
    const body = (await response.json()) as {
      data?: { observations?: { value: string; revisionCount: number }[] };
      meta?: { lastIngestedAt?: string };
    };
    const endedAt = performance.now();
    assertContract("GET", url, response.status, body);
    const observation = body.data?.observations?.[0];
    if (response.status !== 200 || !observation || !body.meta?.lastIngestedAt)
      return { startedAt, endedAt, status: response.status, facts: null };
    return {
      startedAt,
      endedAt,
      status: response.status,
      facts: {
        lastIngestedAt: body.meta.lastIngestedAt,
        value: observation.value,
        revisionCount: observation.revisionCount,
      },
    };
  } catch (error) {
    return { startedAt, endedAt: performance.now(), status: 0, facts: null, failure: String(error) };
  }
}

export interface LoadRun {
  answers: ProbeAnswer[];
  /** Stops the workers after their request under way; resolves when all have stopped. */
  stop(): Promise<ProbeAnswer[]>;
}

/**
 * A bounded load: `workersPerInstance` sequential workers per instance, each pausing `pauseMs` between requests,
 * until stopped, `maxMs` has passed or `maxRequests` were made in all. Plain fetch on 127.0.0.1.
 */
export function startLoad(
  baseUrls: string[],
  apiKey: string,
  options: { workersPerInstance: number; pauseMs: number; maxMs: number; maxRequests: number },
): LoadRun {
  const answers: ProbeAnswer[] = [];
  const deadline = performance.now() + options.maxMs;
  let stopped = false;
  const workers = baseUrls.flatMap((baseUrl, instance) =>
    Array.from({ length: options.workersPerInstance }, async (_, worker) => {
      while (!stopped && performance.now() < deadline && answers.length < options.maxRequests) {
        answers.push({ instance, worker, ...(await askProbe(baseUrl, apiKey)) });
        await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
      }
    }),
  );
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(workers);
      return answers;
    },
  };
}

/** Answers that are not a complete 200 showing exactly one of the published generations. */
export function answersOutside(answers: ProbeAnswer[], generations: GenerationFacts[]): ProbeAnswer[] {
  return answers.filter(
    (answer) => !answer.facts || !generations.some((generation) => sameFacts(generation, answer.facts!)),
  );
}

/** Answers showing an older generation than one the same worker had already been shown. */
export function answersGoingBack(answers: ProbeAnswer[], generations: GenerationFacts[]): ProbeAnswer[] {
  const latest = new Map<string, number>();
  const back: ProbeAnswer[] = [];
  for (const answer of [...answers].sort((a, b) => a.startedAt - b.startedAt)) {
    const rank = generations.findIndex((generation) => answer.facts && sameFacts(generation, answer.facts));
    const key = `${answer.instance}/${answer.worker}`;
    if (rank < (latest.get(key) ?? -1)) back.push(answer);
    latest.set(key, Math.max(rank, latest.get(key) ?? -1));
  }
  return back;
}

/** When each instance first answered with `generation` (the end of that request), in performance.now() time. */
export function firstAnswerTimes(
  answers: ProbeAnswer[],
  generation: GenerationFacts,
  instances: number,
): (number | null)[] {
  return Array.from({ length: instances }, (_, instance) => {
    const times = answers
      .filter((answer) => answer.instance === instance && answer.facts && sameFacts(generation, answer.facts))
      .map((answer) => answer.endedAt);
    return times.length ? Math.min(...times) : null;
  });
}

export function sameFacts(a: GenerationFacts, b: GenerationFacts): boolean {
  return a.lastIngestedAt === b.lastIngestedAt && a.value === b.value && a.revisionCount === b.revisionCount;
}
