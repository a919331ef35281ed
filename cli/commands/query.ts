import type { Command } from "commander";

export function registerQueryCommand(program: Command, _env: NodeJS.ProcessEnv): void {
  program
    .command("query")
    .description("Inspect the local data with the API's reader functions (not built yet)")
    .allowUnknownOption()
    .action(() => {
      process.stderr.write("service query is not available in this version yet: the economics readers have not been built.\n");
      process.exitCode = 1;
    });
}
