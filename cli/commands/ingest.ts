import type { Command } from "commander";

export function registerIngestCommand(program: Command, _env: NodeJS.ProcessEnv): void {
  program
    .command("ingest")
    .description("Fetch publisher calendars and values and publish the index (not built yet)")
    .allowUnknownOption()
    .action(() => {
      process.stderr.write("service ingest is not available in this version yet: economics ingestion has not been built.\n");
      process.exitCode = 1;
    });
}
