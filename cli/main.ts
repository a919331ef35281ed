import { Command, CommanderError, InvalidArgumentError } from "commander";
import { readFileSync } from "node:fs";
import { ConfigError } from "./config.ts";
import { registerDemoMetCommand } from "./commands/demo-met.ts";
import { registerIngestCommand } from "./commands/ingest.ts";
import { registerKeysCommand } from "./commands/keys.ts";
import { registerOpenApiCommand } from "./commands/openapi.ts";
import { registerPlacesCommand } from "./commands/places.ts";
import { registerQueryCommand } from "./commands/query.ts";
import { registerRegistryCommand } from "./commands/registry.ts";
import { registerServeCommand } from "./commands/serve.ts";
import { packagePath } from "./package-paths.ts";

/** Exit code for a bad flag, value or configuration (usage errors). */
const USAGE_ERROR = 2;

const { version } = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string };

const program = new Command("service")
  .description("Weather and economics data service: serve the API, ingest publisher data, manage keys.")
  .version(version)
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

const env = process.env;
registerServeCommand(program, env);
registerKeysCommand(program, env);
registerOpenApiCommand(program, env);
registerRegistryCommand(program, env);
registerPlacesCommand(program, env);
registerIngestCommand(program, env);
registerQueryCommand(program, env);
registerDemoMetCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}

function exitCodeFor(error: unknown): number {
  // A bad value found by a command's own checks (commander prints the ones it finds itself).
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`error: ${error.message}\n(run with --help for usage)\n`);
    return USAGE_ERROR;
  }
  if (error instanceof CommanderError) {
    // commander has already printed its one-line message; help and version are not failures.
    return error.exitCode === 0 ? 0 : USAGE_ERROR;
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration error: ${error.message}\n`);
    return USAGE_ERROR;
  }
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}
