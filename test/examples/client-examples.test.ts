import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { type RunningService, startService } from "../support/service.ts";

const run = promisify(execFile);
const example = (name: string) => fileURLToPath(new URL(`../../docs/examples/${name}`, import.meta.url));
/** Each example as a reader runs it: Python's standard library; the TypeScript one through tsx. */
const EXAMPLES = [
  { language: "Python", command: "python3", args: [example("observations.py")] },
  { language: "TypeScript", command: process.execPath, args: ["--import", "tsx", example("observations.ts")] },
];
const SERIES = "us-unemployment-rate";
const FROM = "2025-06";

describe("the client examples in docs/examples, against a live server over the sample archive", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
  });
  afterAll(async () => {
    await service?.close();
    removeEconomicsDataDirs();
  });

  /** Asynchronously: the server answering the example runs in this process. */
  const runExample = (command: string, args: string[]) =>
    run(command, args, { env: { PATH: process.env.PATH ?? "", SERVICE_URL: service.url }, timeout: 30_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (failure: { code: number; stdout: string; stderr: string }) => failure,
    );

  it.each(
    EXAMPLES,
  )("$language: prints every period's value as the JSON answer has it, page after page, and the credits", async ({
    command,
    args,
  }) => {
    const whole = await service.request(
      `/api/public/v1/economics/observations?series=${SERIES}&from=${FROM}&limit=365`,
    );
    expect(whole.status).toBe(200);
    const observations = whole.body.data.observations as { referencePeriod: string; value: string | null }[];
    // Pages of two: the example follows meta.nextCursor across several of them.
    expect(observations.length).toBeGreaterThan(4);
    const expected = [
      ...observations.map((row) => `${row.referencePeriod}\t${row.value ?? "not available"}`),
      ...whole.body.meta.attributionRecords.map(
        (record: { sourceId: string; licenseName: string; termsUrl: string }) =>
          `source: ${record.sourceId}, ${record.licenseName}, ${record.termsUrl}`,
      ),
    ];
    const result = await runExample(command, [...args, SERIES, FROM, "2"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").slice(0, -1)).toEqual(expected);
  });

  it.each(EXAMPLES)("$language: says the service's error code and exits 1 on an error", async ({ command, args }) => {
    const result = await runExample(command, [...args, "no-such-series"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^NOT_FOUND: .+ \[request [0-9a-f-]{36}\]\n$/);
  });
});
