import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest (tens of seconds each), started first so that the run does not end with one worker busy
 * on one of them and the others idle. Vitest orders by the durations it remembers from the last run (in
 * node_modules/.vite), which a fresh checkout (CI) does not have, and otherwise by file size.
 */
const SLOWEST = [
  "test/ingest/source-fault-matrix.test.ts",
  "test/ingest/kill-trials.test.ts",
  "test/cli/cli.test.ts",
  "test/http/fuzz-operations.test.ts",
  "test/scale/many-instances.test.ts",
  "test/weather/fault-matrix.test.ts",
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOWEST.findIndex((name) => file.moduleId.endsWith(name));
      return index === -1 ? SLOWEST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/build-once.ts", "test/support/run-dir.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // One worker more than the cores: the files spend much of their time waiting on processes, servers and time-outs.
    // (Vitest's default, one fewer than the cores, ran the files one at a time on a 2-core machine.)
    maxWorkers: availableParallelism() + 1,
    // Test files share their worker process, one after another, and with it the modules they import: a fresh process
    // per file importing everything again cost about a quarter of a run's CPU time. So a file leaves nothing running
    // (servers closed, timers restored), changes no process-wide state it does not put back, and registers its hooks
    // in the file itself: a module's top-level afterEach would be registered only in the first file of a worker that
    // imports it.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
  },
});
