import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MetStandin, startMetStandin } from "../../cli/demo/met-standin.ts";
import { buildService } from "./cli-runner.ts";
import { prepareSampleDataDir } from "./data-dir.ts";
import { type LoadGenerator, startLoadGenerator } from "./load-generator.ts";

/** What the measuring tools start from: the sample data with a key, MET's stand-in and the load generator. */
export interface SampleRig {
  dataDir: string;
  apiKey: string;
  standin: MetStandin;
  load: LoadGenerator;
  /** What a tool starts on top (services, ceilings) is stopped with the rig, last started first. */
  stopWith(close: () => Promise<void>): void;
  close(): Promise<void>;
}

/**
 * Builds `dist/` (unless BENCH_SKIP_BUILD=1), ingests the sample archive into a fresh directory and starts the MET
 * stand-in (200 ms latency, not real weather) and the load generator; `close` stops everything and removes the directory.
 */
export async function startSampleRig(name: string): Promise<SampleRig> {
  const root = mkdtempSync(join(tmpdir(), `${name}-`));
  const closers: Array<() => Promise<void>> = [async () => rmSync(root, { recursive: true, force: true })];
  const stopWith = (close: () => Promise<void>) => void closers.push(close);
  const close = async () => {
    for (const stop of closers.reverse()) await stop().catch(() => undefined);
  };
  try {
    if (process.env.BENCH_SKIP_BUILD !== "1") await buildService();
    const dataDir = join(root, "samples");
    const { apiKey } = await prepareSampleDataDir(dataDir);
    const standin = await startMetStandin({ host: "127.0.0.1", port: 0, latencyMs: 200 });
    stopWith(() => standin.close());
    const load = await startLoadGenerator();
    stopWith(() => load.close());
    return { dataDir, apiKey, standin, load, stopWith, close };
  } catch (error) {
    await close();
    throw error;
  }
}
