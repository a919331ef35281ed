import { readFileSync } from "node:fs";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { registerDemoMetCommand } from "./commands/demo-met.ts";
import { registerIngestCommand } from "./commands/ingest.ts";
import { registerKeysCommand } from "./commands/keys.ts";
import { registerOpenApiCommand } from "./commands/openapi.ts";
import { registerPlacesCommand } from "./commands/places.ts";
import { registerQueryCommand } from "./commands/query.ts";
import { registerRegistryCommand } from "./commands/registry.ts";
import { registerServeCommand } from "./commands/serve.ts";
import { serviceEnvironment } from "./config.ts";
import { ConfigError } from "./env-values.ts";
import { replaceHelpCommands } from "./help-command.ts";
import { handleOutputErrors } from "./output-errors.ts";
import { packagePath } from "./package-paths.ts";
import { EXIT_CODES, USAGE_HINT } from "./usage.ts";

const { version } = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string };

handleOutputErrors();

const program = new Command("service")
  .description("Weather and economics data service: serve the API, ingest publisher data, manage keys.")
  .version(version)
  .showHelpAfterError(USAGE_HINT)
  .exitOverride();

const env = serviceEnvironment(process.env);
registerServeCommand(program, env);
registerKeysCommand(program, env);
registerOpenApiCommand(program, env);
registerRegistryCommand(program, env);
registerPlacesCommand(program, env);
registerIngestCommand(program, env);
registerQueryCommand(program, env);
registerDemoMetCommand(program);
replaceHelpCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}

/**
 * Exit code 2 for a usage error (a bad flag, value or configuration, a missing command), each a one-line message and
 * the usage hint; 1 for any other failure, with its message. A command that finds the thing asked for missing
 * reports it and sets exit code 1 itself.
 */
function exitCodeFor(error: unknown): number {
  // A bad value found by a command's own checks (commander prints the ones it finds itself).
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`error: ${error.message}\n${USAGE_HINT}\n`);
    return EXIT_CODES.usage;
  }
  if (error instanceof CommanderError) {
    // commander has already printed its one-line message (or, for a command named without its subcommand, its
    // help); help and version asked for are not failures.
    return error.exitCode === 0 ? 0 : EXIT_CODES.usage;
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration error: ${error.message}\n${USAGE_HINT}\n`);
    return EXIT_CODES.usage;
  }
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT_CODES.failure;
}
