import { Option, type Command } from "commander";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import { ApiError } from "../../server/http/api-error.ts";
import { serviceConfigFrom } from "../config.ts";
import { QUERY_VIEWS } from "../query/columns.ts";
import { renderCsv, renderTable } from "../query/render.ts";

/** Each subcommand runs the handler of one API route, so parameters, rules and error codes are the API's own. */
const SUBCOMMANDS: Record<string, string> = {
  events: "v1.economics.events",
  calendar: "v1.economics.calendar",
  releases: "public.economics.releases",
  observations: "public.economics.observations",
  series: "v1.economics.series",
  indicators: "v1.economics.indicators",
};

/** Validation problems are usage errors (exit 2); missing data and the rest are failures (exit 1). */
const USAGE_CODES = new Set(["VALIDATION_FAILED", "ECONOMICS_RANGE_INVALID", "NOT_FOUND"]);

export function registerQueryCommand(program: Command, env: NodeJS.ProcessEnv): void {
  const query = program
    .command("query")
    .description("Inspect the local data with the API's own readers: events, calendar, releases, observations, series, indicators");
  for (const [name, routeName] of Object.entries(SUBCOMMANDS)) {
    const route = ALL_ROUTES.find((candidate) => candidate.name === routeName)!;
    // Created through the parent so it inherits the program's settings: usage errors exit 2 with a hint.
    const command = query.command(name).description(`${route.summary} (as GET ${route.path})`);
    for (const parameter of route.parameters.filter((candidate) => candidate.in === "query")) {
      command.addOption(new Option(`--${parameter.name} <value>`, parameter.description));
    }
    command
      .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
      .addOption(new Option("--json", "print the whole { data, meta } answer as JSON").conflicts("csv"))
      .option("--csv", "print the rows as CSV")
      .action(async (options: Record<string, string | boolean | undefined>) => {
        const config = serviceConfigFrom(env, { dataDir: options.dataDir as string | undefined });
        const parameters = new URLSearchParams();
        for (const parameter of route.parameters) {
          const value = options[parameter.name];
          if (typeof value === "string") parameters.set(parameter.name, value);
        }
        const { createRouteHandlers } = await import("../../server/route-handlers.ts");
        const { handlers, clock } = createRouteHandlers({ config, weather: null });
        try {
          const result = await handlers[routeName]!({ query: parameters, params: {}, principal: null, now: clock.now() });
          const data = result.data as Record<string, unknown>;
          if (options.json) process.stdout.write(`${JSON.stringify({ data, meta: result.meta ?? {} }, null, 2)}\n`);
          else process.stdout.write((options.csv ? renderCsv : renderTable)(QUERY_VIEWS[name]!, data));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          process.stderr.write(`${error.code}: ${error.message}\n`);
          process.exitCode = USAGE_CODES.has(error.code) ? 2 : 1;
        }
      });
  }
}
