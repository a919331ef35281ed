import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The CLI tests run the real executable, and the in-process ingestion tests the compiled build
 * (compiled-ingestion.ts): build it from the sources under test first, and again before each re-run in watch mode, so
 * no test ever runs a stale build.
 */
export default function buildOnce(project: TestProject): void {
  build();
  project.onTestsRerun(build);
}

function build(): void {
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"],
    { cwd: root, stdio: "inherit" },
  );
}
