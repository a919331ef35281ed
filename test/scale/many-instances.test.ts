import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliAsync, waitUntil } from "../ingest/cli-process.ts";
import { type LongRunningCli, startCli } from "../support/long-running-cli.ts";
import { writeRevisedSamples } from "../support/revised-samples.ts";
import { runCli } from "../support/run-cli.ts";
import {
  answersGoingBack,
  answersOutside,
  askProbe,
  firstAnswerTimes,
  type GenerationFacts,
  generationFacts,
  type ProbeAnswer,
  sameFacts,
  startLoad,
} from "./generation-load.ts";
import { type ObjectStoreStandin, startObjectStoreStandin } from "./object-store-process.ts";

const BUCKET = "weather-economics-index";
const STORE_URL = `s3://${BUCKET}/production`;
const POLL_SECONDS = 1;
const INSTANCES = 3;
const PUBLIC_LIMIT = 3;
/** The instances' rate-limit window; windows are aligned to its multiples of the clock, which is the real one here. */
const RATE_WINDOW_SECONDS = 60;
const LOAD = { workersPerInstance: 2, pauseMs: 10, maxMs: 45_000, maxRequests: 40_000 };

interface Instance {
  cli: LongRunningCli;
  url: string;
  metricsUrl: string;
  dataDir: string;
}

/**
 * The shape issue 14 asks for, on this machine: one writer publishing through an S3 stand-in (s3rver, a child
 * process) and three real `service serve --index-from` processes following it, under load while generations change
 * and while the store dies mid-download. The swap measurements are printed as `swap measurements: {...}`.
 */
describe("three instances following one index published to object storage", () => {
  let root: string;
  let store: ObjectStoreStandin;
  let publisherDir: string;
  let revisedSamples: string;
  let apiKey: string;
  const instances: Instance[] = [];
  const published: GenerationFacts[] = [];

  const publish = async (archive: string) => {
    const run = await runCliAsync(
      ["ingest", "--from-archive", archive, "--data-dir", publisherDir, "--publish-to", STORE_URL],
      store.env,
      { timeoutMs: 60_000 },
    );
    // A generation is named by its index's publication instant, as in the readers' logs and the metric.
    const printed = run.stdout.match(
      /^generation (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) published to s3:\/\/weather-economics-index\/production\/manifest\.json$/m,
    );
    expect(printed, run.stderr).not.toBeNull();
    const facts = generationFacts(publisherDir);
    published.push(facts);
    return { facts, name: printed![1]!, doneAt: performance.now() };
  };
  const installLines = (instance: Instance) =>
    instance.cli
      .stderr()
      .split("\n")
      .filter((line) => line.includes('"index generation installed"'))
      .map((line) => JSON.parse(line) as { downloadMs: number; generation: string });
  const urls = () => instances.map((instance) => instance.url);
  const waitForAll = (facts: GenerationFacts, what: string) =>
    Promise.all(
      instances.map(async (instance) => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const answer = await askProbe(instance.url, apiKey);
          if (answer.facts && sameFacts(answer.facts, facts)) return;
          if (Date.now() > deadline)
            throw new Error(
              `${instance.url} did not reach ${what}: ${JSON.stringify(answer)}\n${instance.cli.stderr().slice(-2000)}`,
            );
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }),
    );

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "many-instances-"));
    store = await startObjectStoreStandin(join(root, "store"), BUCKET);
    publisherDir = join(root, "publisher");
    revisedSamples = writeRevisedSamples(join(root, "revised-samples"));
    // One hashed key list for every instance, as a deployment mounts one (SERVICE_KEYS_FILE).
    const keysFile = join(root, "keys.json");
    const created = runCli(["keys", "create", "--scopes", "economics:read", "--name", "load"], {
      SERVICE_DATA_DIR: publisherDir,
      SERVICE_KEYS_FILE: keysFile,
    });
    apiKey = created.stdout.trim().split("\n").at(-1)!;
    // The gazetteer built once and copied, so three starts do not build it three times.
    const places = join(root, "places");
    expect(runCli(["places", "--data-dir", places]).status).toBe(0);
    for (let i = 0; i < INSTANCES; i++) {
      const dataDir = join(root, `instance-${i}`);
      mkdirSync(dataDir);
      cpSync(join(places, "places.sqlite"), join(dataDir, "places.sqlite"));
      const cli = startCli(["serve", "--port", "0", "--data-dir", dataDir, "--index-from", STORE_URL], {
        ...store.env,
        SERVICE_INDEX_POLL_SECONDS: String(POLL_SECONDS),
        SERVICE_KEYS_FILE: keysFile,
        SERVICE_RATE_LIMIT_PUBLIC: String(PUBLIC_LIMIT),
        SERVICE_RATE_LIMIT_WINDOW_SECONDS: String(RATE_WINDOW_SECONDS),
        SERVICE_RATE_LIMIT_CREDENTIALED: "1000000",
        SERVICE_SHUTDOWN_GRACE_SECONDS: "1",
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
        SERVICE_METRICS_PORT: "0",
      });
      instances.push({ cli, dataDir, url: "", metricsUrl: "" });
    }
    for (const instance of instances) {
      instance.url = (await instance.cli.waitForStdout(/listening on (http:\/\/\S+?)\/? with/, 30_000))[1]!;
      instance.metricsUrl = (await instance.cli.waitForStdout(/metrics on (http:\/\/[^\s/]+)/, 30_000))[1]!;
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.cli.stop("SIGTERM")));
    await store?.kill();
    rmSync(root, { recursive: true, force: true });
  });

  it("answers 503 on every instance until a generation is published, then every instance serves it", async () => {
    for (const instance of instances) {
      expect((await fetch(`${instance.url}/api/public/v1/health/ready`)).status).toBe(503);
      const answer = await askProbe(instance.url, apiKey);
      expect(answer.status).toBe(503);
    }
    const first = await publish("data/samples");
    await waitForAll(first.facts, "the first generation");
    for (const instance of instances)
      expect((await fetch(`${instance.url}/api/public/v1/health/ready`)).status).toBe(200);
  }, 60_000);

  let swap: Record<string, unknown> = {};

  it("moves every instance to a new generation under load within the poll interval plus the download time, failing and mixing nothing", async () => {
    const [before] = published.slice(-1) as [GenerationFacts];
    const load = startLoad(urls(), apiKey, LOAD);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const next = await publish(revisedSamples);
    await waitForAll(next.facts, "the revised generation");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const answers = await load.stop();

    expect(answers.filter((answer) => answer.status !== 200).slice(0, 5)).toEqual([]);
    expect(answersOutside(answers, [before, next.facts]).slice(0, 5)).toEqual([]);
    expect(answersGoingBack(answers, [before, next.facts]).slice(0, 5)).toEqual([]);
    const moved = firstAnswerTimes(answers, next.facts, INSTANCES).map((time) => Math.max(0, time! - next.doneAt));
    const downloads = instances.map((instance) => installLines(instance).at(-1)!.downloadMs);
    expect(instances.map((instance) => installLines(instance).at(-1)!.generation)).toEqual(
      instances.map(() => next.name),
    );
    // How fast each instance moved is measured and printed, not asserted (speed belongs to the benchmark): waitForAll
    // above proved that every instance moved.
    swap = {
      requests: answers.length,
      failed: 0,
      mixed: 0,
      movedMsPerInstance: moved.map(Math.round),
      allMovedMs: Math.round(Math.max(...moved)),
      downloadMsPerInstance: downloads,
      pollIntervalMs: POLL_SECONDS * 1000,
    };
    process.stdout.write(`swap measurements: ${JSON.stringify(swap)}\n`);
  }, 60_000);

  it("keeps serving the old generation when the store dies mid-download, and takes the new one when it returns", async () => {
    const [current] = published.slice(-1) as [GenerationFacts];
    const load = startLoad(urls(), apiKey, LOAD);
    await store.stallDownloads(64 * 1024);
    const next = await publish("data/samples");
    const partial = (instance: Instance) => readdirSync(instance.dataDir).filter((name) => name.endsWith(".download"));
    await waitUntil(
      () =>
        instances.every((instance) =>
          partial(instance).some((name) => statSync(join(instance.dataDir, name)).size > 0),
        ),
      20_000,
      "a partial download on every instance",
    );
    const failedBefore = instances.map((instance) => warnings(instance).length);
    await store.kill();
    await waitUntil(
      () =>
        instances.every(
          (instance, i) => warnings(instance).length > failedBefore[i]! && partial(instance).length === 0,
        ),
      20_000,
      "every instance to give up its download",
    );
    const whileDown = await Promise.all(instances.map((instance) => askProbe(instance.url, apiKey)));
    expect(whileDown.map((answer) => answer.facts && sameFacts(answer.facts, current))).toEqual(
      instances.map(() => true),
    );

    await store.restart();
    await waitForAll(next.facts, "the generation published while the store was failing");
    const answers: ProbeAnswer[] = await load.stop();
    expect(answers.filter((answer) => answer.status !== 200).slice(0, 5)).toEqual([]);
    expect(answersOutside(answers, [current, next.facts]).slice(0, 5)).toEqual([]);
    expect(answersGoingBack(answers, [current, next.facts]).slice(0, 5)).toEqual([]);
    for (const instance of instances) {
      expect(installLines(instance)).toHaveLength(3);
      const metrics = await (await fetch(`${instance.metricsUrl}/metrics`)).text();
      expect(metrics).toMatch(/^service_index_polls_total\{outcome="installed"\} 3$/m);
      expect(
        Number(/^service_index_polls_total\{outcome="failed"\} (\d+)$/m.exec(metrics)?.[1]),
      ).toBeGreaterThanOrEqual(1);
    }
    const cutShort = instances.map((instance, i) => warnings(instance)[failedBefore[i]!]);
    for (const warning of cutShort)
      expect(warning).toMatchObject({
        msg: "index generation not taken: the current index stays",
        error: expect.any(String),
      });
    process.stdout.write(
      `store failure: ${JSON.stringify({ requests: answers.length, failed: 0, mixed: 0, downloadsCutShort: cutShort.map((warning) => warning?.error) })}\n`,
    );
  }, 60_000);

  it("counts rate limits per instance: one instance's spent limit leaves the others' untouched", async () => {
    const releases = (instance: Instance) => fetch(`${instance.url}/api/public/v1/economics/releases`);
    const [first, second] = instances as [Instance, Instance];
    // A window ending halfway would start the counts afresh: begin in a window with time to spare.
    const windowMs = RATE_WINDOW_SECONDS * 1000;
    const leftMs = windowMs - (Date.now() % windowMs);
    if (leftMs < 15_000) await new Promise((resolve) => setTimeout(resolve, leftMs + 100));
    for (let i = 1; i <= PUBLIC_LIMIT; i++) {
      const answer = await releases(first);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit-remaining")).toBe(String(PUBLIC_LIMIT - i));
    }
    const refused = await releases(first);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    const elsewhere = await releases(second);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get("ratelimit-remaining")).toBe(String(PUBLIC_LIMIT - 1));
  }, 30_000);

  function warnings(instance: Instance): Record<string, unknown>[] {
    return instance.cli
      .stderr()
      .split("\n")
      .filter((line) => line.includes('"index generation not taken'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
});
