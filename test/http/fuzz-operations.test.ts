import { readFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlacesIndex, loadAllTheCities } from "../../cli/places/build-places-index.ts";
import {
  type LeakMarkers,
  problemsWith,
  type ReceivedAnswer,
  standardLeakMarkers,
} from "../support/answer-invariants.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { type FuzzTransport, fuzzTransport } from "../support/fuzz-transport.ts";
import { type HostileRequest, hostileRequests, type KeyRing } from "../support/hostile-requests.ts";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { type Operation, operationsOf } from "../support/openapi-operations.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import type { KnownSlugs } from "../support/valid-ish-values.ts";

/**
 * Property-based attack on every operation of the published description: at least 10,000 random and hostile requests
 * over real HTTP against the real service (sample index, place index, MET stand-in, keys of every scope), each answer
 * checked against the invariants in answer-invariants.ts. The seed is fixed so a failure reproduces; FUZZ_SEED
 * explores another part of the space.
 */

const DEFAULT_SEED = 20_261_121;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : DEFAULT_SEED;
const MINIMUM_REQUESTS = 10_000;
/** Requests in flight at once. */
const CONCURRENCY = 16;
/** Requests per property run: fast-check shrinks a failing batch, and the failure names its offending requests. */
const BATCH = 32;
const RUNS = Math.ceil((MINIMUM_REQUESTS + 256) / BATCH);
/**
 * Stops shrinking (which re-sends whole batches) from outliving the test; the best counterexample so far is reported.
 * It bounds the passing runs too: about 30 s alone, they took over 60 s on two cores beside two other test runs.
 */
const TIME_LIMIT_MS = 150_000;

const registrySlugs = (file: string): string[] =>
  (JSON.parse(readFileSync(new URL(`../../data/registry/${file}`, import.meta.url), "utf8")) as { slug: string }[]).map(
    (entry) => entry.slug,
  );

/** Long values would drown the report; the seed reproduces them in full. */
function describeRequest(request: HostileRequest): string {
  const shorten = (text: string) => (text.length > 240 ? `${text.slice(0, 240)}… (${text.length} chars)` : text);
  return `${request.method} ${shorten(request.path)} headers=${shorten(JSON.stringify(request.headers))}${request.body !== undefined ? ` body=${shorten(JSON.stringify(request.body))}` : ""}`;
}

function describeAnswer(answer: ReceivedAnswer | Error): string {
  return answer instanceof Error ? `no answer (${answer.message})` : `${answer.status} ${answer.text.slice(0, 300)}`;
}

/**
 * fast-check's own report prints the whole shrunk batch (32 requests, some of 20 KB); the property's error already
 * names the failing requests, so the report keeps to that, the seed and the replay path.
 */
async function reportFailure<T>(details: fc.RunDetails<T>): Promise<void> {
  if (!details.failed) return;
  const cause =
    details.errorInstance instanceof Error
      ? details.errorInstance.message
      : String(details.errorInstance ?? "interrupted (time limit)");
  throw new Error(
    `fuzz failed: seed ${details.seed}, after ${details.numRuns} runs, shrunk ${details.numShrinks} times (replay: FUZZ_SEED=${details.seed}).\n${cause}`,
  );
}

describe("random and hostile requests to every operation of the description", () => {
  const clock = fakeClock();
  let met: MetStandin;
  let service: RunningService;
  let transport: FuzzTransport;
  let operations: Operation[];
  let keys: KeyRing;
  let markers: LeakMarkers;

  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now });
    service = await startService({
      clock,
      seedDataDir: await sampleDataDir(),
      weatherBaseUrl: met.url,
      corsOrigins: ["https://app.example.com"],
      // Limits out of reach, so requests reach the handlers instead of all being 429 after the first window.
      rateLimit: { publicPerWindow: 1_000_000_000, credentialedPerWindow: 1_000_000_000 },
      // The trigger is attacked, but must not start real ingestion processes while it is.
      launchIngestion: () => ({ start: () => ({ started: false, run: null }), launched: () => undefined }),
    });
    const cities = loadAllTheCities().filter((city) => city.population > 200_000);
    buildPlacesIndex(service.dataDir, { cities });
    keys = {
      weather: service.createKey(["weather:read"]),
      economics: service.createKey(["economics:read"]),
      operator: service.createKey(["operator"]),
      everything: service.createKey(["weather:read", "economics:read", "operator"]),
      revoked: service.createKey(["weather:read", "economics:read", "operator"], { revoked: true }),
      otherEnvironment: service.createKey(["weather:read", "economics:read", "operator"], {
        environment: "production",
      }),
    };
    const document = await (await fetch(`${service.url}/api/v1/openapi.json`)).json();
    operations = operationsOf(document);
    const metHost = new URL(met.url).host;
    // Values long enough to be secrets or paths; FUZZ_SEED is this test's own input, a number can match an id by chance,
    // and npm's npm_package_* variables are the package's own public description (its name is the feed's PRODID).
    const environmentValues = Object.entries(process.env)
      .filter(
        ([name, value]) =>
          name !== "FUZZ_SEED" &&
          !name.startsWith("npm_package_") &&
          value !== undefined &&
          value.length >= 8 &&
          !/^\d+$/.test(value),
      )
      .map(([, value]) => value!);
    markers = standardLeakMarkers([service.dataDir, "service-test-", metHost, ...environmentValues]);
    transport = fuzzTransport(service.url, CONCURRENCY);
  }, 60_000);

  afterAll(async () => {
    await transport?.close();
    await service?.close();
    await met?.close();
    removeEconomicsDataDirs();
  });

  it("covers every published operation and the operator routes", () => {
    const ids = operations.map((operation) => operation.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "v1.weather.current",
        "v1.economics.events",
        "public.weather.places",
        "v1.openapi",
        "v1.admin.ingestionRuns",
        "v1.admin.ingestionTrigger",
      ]),
    );
    expect(ids.filter((id) => id.endsWith(".head")).length).toBeGreaterThan(10);
  });

  it(
    `answers ${MINIMUM_REQUESTS}+ requests without a 5xx, a contract break or a leak`,
    async () => {
      const slugs: KnownSlugs = {
        families: registrySlugs("families.json"),
        series: registrySlugs("series.json"),
        releases: registrySlugs("releases.json"),
      };
      const perOperation = new Map<string, number>();
      const statuses = new Map<string, number>();
      const started = Date.now();
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.array(hostileRequests(operations, slugs, keys), { minLength: BATCH, maxLength: BATCH }),
            async (batch) => {
              const answers = await transport.sendAll(batch);
              const failures: string[] = [];
              batch.forEach((request, index) => {
                const answer = answers[index]!;
                perOperation.set(request.operation, (perOperation.get(request.operation) ?? 0) + 1);
                if (answer instanceof Error) {
                  // undici refusing to send is the generator's mistake, not the service's; it is counted and reported apart.
                  if (answer.name !== "InvalidArgumentError")
                    failures.push(`${describeRequest(request)}\n  → ${describeAnswer(answer)}`);
                  return;
                }
                const code = answer.status >= 400 ? /"code":"([A-Z_]+)"/.exec(answer.text)?.[1] : undefined;
                const outcome = code ? `${answer.status} ${code}` : String(answer.status);
                statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
                const problems = problemsWith(request, answer, markers);
                if (problems.length > 0)
                  failures.push(
                    `${describeRequest(request)}\n  → ${describeAnswer(answer)}\n  ✗ ${problems.join("\n  ✗ ")}`,
                  );
              });
              if (failures.length > 0)
                throw new Error(
                  `${failures.length} of ${batch.length} answers broke the invariants:\n${failures.join("\n")}`,
                );
            },
          ),
          {
            seed: SEED,
            numRuns: RUNS,
            interruptAfterTimeLimit: TIME_LIMIT_MS,
            markInterruptAsFailure: true,
            asyncReporter: reportFailure,
          },
        );
      } finally {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        const byStatus = [...statuses]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([status, count]) => `${status}:${count}`)
          .join(" ");
        const byOperation = [...perOperation].map(([operation, count]) => `${operation}:${count}`).join(" ");
        console.log(
          `fuzz: seed ${SEED} (FUZZ_SEED overrides), ${transport.sent} requests sent in ${seconds} s, ${transport.refusedByClient} refused by the client ${JSON.stringify(transport.refusalSamples)}; statuses ${byStatus}; per operation ${byOperation}`,
        );
      }
      expect(transport.sent).toBeGreaterThanOrEqual(MINIMUM_REQUESTS);
      expect(new Set(perOperation.keys())).toEqual(new Set(operations.map((operation) => operation.id)));
    },
    TIME_LIMIT_MS + 30_000,
  );
});
