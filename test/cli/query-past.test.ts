import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempDirs } from "../ingest/cli-process.ts";
import { HICP_REVISIONS, HICP_SERIES, ingestEachInItsOwnRun } from "../support/document-replay.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { runCli } from "../support/run-cli.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * `query observations --as-of/--vintages` answer what the credentialed observations route answers for the same data:
 * a euro-area HICP figure for 2022-08 published three times, each MODIFIED document (test/support/document-replay.ts)
 * replayed in its own run, and 2022-09 first published with the third.
 */
const DOCUMENTS = HICP_REVISIONS;

describe("service query observations about the past, as the API answers it", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  const query = (...args: string[]) =>
    runCli(["query", "observations", "--series", HICP_SERIES, ...args, "--data-dir", service.dataDir]);

  beforeAll(async () => {
    service = await startService({ seedDataDir: await ingestEachInItsOwnRun(DOCUMENTS) });
    get = credentialedClient(service);
  });
  afterAll(async () => {
    await service?.close();
    removeTempDirs();
  });

  /** The CLI's --json answer and the route's, for the same question: the same data and the same next page. */
  async function expectSameAnswer(args: string[], parameters: string) {
    const cli = query(...args, "--json");
    expect(cli.status, cli.stderr).toBe(0);
    const { status, body } = await get(`/api/v1/economics/series/${HICP_SERIES}/observations?${parameters}`);
    expect(status).toBe(200);
    const answer = JSON.parse(cli.stdout);
    expect(answer.data, args.join(" ")).toEqual(body.data);
    expect(answer.meta.nextCursor, args.join(" ")).toEqual(body.meta.nextCursor);
    return answer.data;
  }

  it("--vintages lists every vintage of each period, and with --as-of those recorded by then", async () => {
    const all = await expectSameAnswer(["--vintages"], "vintages=all");
    expect(all.periods.map((period: { vintages: unknown[] }) => period.vintages.length)).toEqual([3, 1]);
    const then = await expectSameAnswer(["--vintages", "--as-of", "2022-09-16"], "vintages=all&asOf=2022-09-16");
    expect(then.periods[0].vintages.map((vintage: { value: string }) => vintage.value)).toEqual(["5.3", "5.4"]);
  });

  it("--as-of answers each period as the service held it then, paged as the route pages", async () => {
    const held = await expectSameAnswer(["--as-of", "2022-09-20"], "asOf=2022-09-20");
    expect(held.observations.map((row: { value: string }) => row.value)).toEqual(["5.4"]);
    await expectSameAnswer(["--as-of", "2022-11-01", "--limit", "1"], "asOf=2022-11-01&limit=1");
    // The API's own spelling is kept as a hidden alias.
    expect(query("--asOf", "2022-09-20").stdout).toBe(query("--as-of", "2022-09-20").stdout);
  });

  it("prints one row per vintage off a terminal, with the API's values", async () => {
    const { body } = await get(`/api/v1/economics/series/${HICP_SERIES}/observations?vintages=all`);
    const result = query("--vintages");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        "period\tvintage\tvalue\tstatus\trecorded\trun",
        ...body.data.periods.flatMap(
          (period: {
            referencePeriod: string;
            vintages: {
              sequence: number;
              value: string;
              publicationStatus: string | null;
              recordedAt: string;
              runId: string;
            }[];
          }) =>
            period.vintages.map((vintage) =>
              [
                period.referencePeriod,
                vintage.sequence,
                vintage.value,
                vintage.publicationStatus ?? "",
                vintage.recordedAt,
                vintage.runId,
              ].join("\t"),
            ),
        ),
        "",
      ].join("\n"),
    );
  });

  it("answers a bad --as-of or --vintages value with the API's code, and no series as the public route does", () => {
    for (const args of [["--as-of", "yesterday"], ["--vintages=some"]]) {
      const result = query(...args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(/^VALIDATION_FAILED: .+\n\(run with --help for usage\)\n$/);
    }
    const unnamed = runCli(["query", "observations", "--vintages", "--data-dir", service.dataDir]);
    expect(unnamed.status).toBe(2);
    expect(unnamed.stderr).toBe("VALIDATION_FAILED: series is required.\n(run with --help for usage)\n");
  });
});
