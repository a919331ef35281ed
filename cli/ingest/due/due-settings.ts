import { DateTime } from "luxon";
import { ConfigError, type Env, integerVariable } from "../../env-values.ts";

/** How long a release stays due when its figures do not come: two hours after it became due, unless configured. */
const DEFAULT_DUE_DEADLINE_MINUTES = 120;

/** SERVICE_DUE_DEADLINE_MINUTES, 1 to 1440 (a day), in milliseconds. */
export function dueDeadlineMsFrom(env: Env): number {
  const minutes = integerVariable(
    env.SERVICE_DUE_DEADLINE_MINUTES,
    "SERVICE_DUE_DEADLINE_MINUTES",
    DEFAULT_DUE_DEADLINE_MINUTES,
    1,
    1440,
  );
  return minutes * 60_000;
}

/** An ISO 8601 instant that names its offset (`Z` or `±hh:mm`): a clock start must not depend on the machine's zone. */
const INSTANT_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The clock an ingestion run reads (epoch ms): the machine's, or, for tests and demos only, one that starts at
 * SERVICE_CLOCK_START when the process starts and runs at real speed from there, so that a release moment can be
 * played against stand-in publishers without waiting for it. Every time such a run records (fetches, evidence,
 * vintages, its own start and end) is then that clock's: never set it on a deployment that fetches real publishers.
 */
export function ingestClockFrom(env: Env): () => number {
  const start = env.SERVICE_CLOCK_START;
  if (start === undefined || start === "") return () => Date.now();
  // Luxon, not Date.parse, which rolls a day that does not exist (2026-02-30) over into the next month.
  const startMs = INSTANT_WITH_OFFSET.test(start) ? DateTime.fromISO(start, { setZone: true }).toMillis() : Number.NaN;
  if (!Number.isFinite(startMs))
    throw new ConfigError(
      "SERVICE_CLOCK_START must be an ISO 8601 instant on a real date, with its offset, e.g. 2026-08-12T12:31:00Z",
    );
  const startedAt = performance.now();
  return () => Math.round(startMs + (performance.now() - startedAt));
}
