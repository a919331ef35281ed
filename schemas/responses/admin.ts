import { RUN_ID_PATTERN } from "../ingestion-runs.ts";
import { arrayOf, bool, dateTime, enumOf, nullable, obj, str } from "../json-schema.ts";
import { CHECK_RESULTS, RUN_OUTCOMES } from "../vocabularies.ts";

const runId = () => str({ pattern: RUN_ID_PATTERN.source });

const runFields = {
  id: runId(),
  startedAt: dateTime(),
  finishedAt: nullable(dateTime()),
  outcome: enumOf(RUN_OUTCOMES),
  sources: arrayOf(obj({ sourceId: str(), check: enumOf(CHECK_RESULTS), detail: nullable(str()) })),
};

export const runSchema = obj(runFields);

export const ingestionRunsSchema = obj({ runs: arrayOf(runSchema) });

/**
 * `runId` names the run started, or the one already in progress when `started` is false (null when it is not known yet).
 * `nothingDue`, only in the answer to a due run (`?due=true`) that found nothing due, says until when and which release.
 */
export const ingestionTriggerSchema = obj(
  { started: bool(), runId: nullable(runId()), runs: arrayOf(runSchema), nothingDue: str() },
  ["nothingDue"],
);

/**
 * One run: `detail` says why a run failed as a whole (null otherwise), `logFile` is the progress log of a run started
 * through the operator route (null for runs started from the command line or a schedule).
 */
export const ingestionRunSchema = obj({
  run: obj({ ...runFields, detail: nullable(str()), logFile: nullable(str()) }),
});
