import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The CLI tests run the real executable, which runs the compiled JavaScript: build it from the sources under test
 * first, so no test ever runs a stale build.
 */
export default function buildOnce(): void {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"],
    { cwd: root, stdio: "inherit" },
  );
}
