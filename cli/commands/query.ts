import { randomUUID } from "node:crypto";
import { type Command, Option } from "commander";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import { ApiError } from "../../server/http/api-error.ts";
import type { RouteResult } from "../../server/http/route-handler.ts";
import { serviceConfigFrom } from "../config.ts";
import { QUERY_VIEWS } from "../query/columns.ts";
import { pageNote } from "../query/page-note.ts";
import { renderCsv, renderTable, renderTsv } from "../query/render.ts";
import { unreadableDataFiles } from "../query/unreadable-files.ts";
import { EXIT_CODES, USAGE_HINT } from "../usage.ts";

/** Each subcommand runs the handler of one API route, so parameters, rules and error codes are the API's own. */
const SUBCOMMANDS: Record<string, string> = {
  events: "v1.economics.events",
  calendar: "v1.economics.calendar",
  releases: "public.economics.releases",
  observations: "public.economics.observations",
  series: "v1.economics.series",
  indicators: "v1.economics.indicators",
};

/**
 * A bad value is a usage error (exit 2, with the usage hint); everything else is a failure (exit 1): an unknown slug
 * (NOT_FOUND: the command was right, the thing is not there) and data that cannot be read.
 */
const USAGE_CODES = new Set(["VALIDATION_FAILED", "ECONOMICS_RANGE_INVALID"]);

/** The answers of a data directory whose files are missing or damaged: a damaged one is named (unreadable-files.ts). */
const UNAVAILABLE_CODES = new Set(["SERVICE_UNAVAILABLE", "STORAGE_UNAVAILABLE", "CONFIGURATION_ERROR"]);

export function registerQueryCommand(program: Command, env: NodeJS.ProcessEnv): void {
  const query = program
    .command("query")
    .description(
      "Inspect the local data with the API's own readers: events, calendar, releases, observations, series, indicators",
    );
  for (const [name, routeName] of Object.entries(SUBCOMMANDS)) {
    const route = ALL_ROUTES.find((candidate) => candidate.name === routeName)!;
    // Created through the parent so it inherits the program's settings: usage errors exit 2 with a hint.
    const command = query.command(name).description(`${route.summary} (as GET ${route.path})`);
    const takes = {
      limit: route.parameters.some((parameter) => parameter.name === "limit"),
      cursor: route.parameters.some((parameter) => parameter.name === "cursor"),
    };
    for (const parameter of route.parameters.filter((candidate) => candidate.in === "query")) {
      command.addOption(new Option(`--${parameter.name} <value>`, parameter.description));
    }
    command
      .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
      .addOption(new Option("--json", "print the whole { data, meta } answer as JSON").conflicts("csv"))
      .option("--csv", "print the rows as CSV")
      .addHelpText(
        "after",
        "\nOn a terminal the rows are a table cut to its width, with a last line saying how to get more rows when there are;\nwhen stdout is not a terminal, tab-separated values (a header row, values whole) and that line on stderr.\nWith --csv, CSV rows, and that line on stderr.",
      )
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
          const result = await handlers[routeName]!({
            query: parameters,
            params: {},
            principal: null,
            now: clock.now(),
          });
          const data = result.data as Record<string, unknown>;
          const meta = result.meta ?? {};
          const view = QUERY_VIEWS[name]!;
          if (options.json)
            return void process.stdout.write(
              `${JSON.stringify(await wholeAnswer(result, route, clock.now()), null, 2)}\n`,
            );
          const note = pageNote(view.rows(data).length, meta, takes);
          if (process.stdout.isTTY && !options.csv) {
            process.stdout.write(renderTable(view, data, process.stdout.columns) + (note ? `${note}\n` : ""));
          } else {
            // Rows meant for another program: the note goes beside them on stderr, never among them.
            process.stdout.write(options.csv ? renderCsv(view, data) : renderTsv(view, data));
            if (note) process.stderr.write(`${note}\n`);
          }
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const unreadable = UNAVAILABLE_CODES.has(error.code)
            ? unreadableDataFiles(config.dataDir, config.storageEnabled)
            : [];
          if (unreadable.length > 0) {
            process.stderr.write(unreadable.map((line) => `error: ${line}\n`).join(""));
            process.exitCode = EXIT_CODES.failure;
            return;
          }
          const usage = USAGE_CODES.has(error.code);
          process.stderr.write(`${error.code}: ${error.message}\n${usage ? `${USAGE_HINT}\n` : ""}`);
          process.exitCode = usage ? EXIT_CODES.usage : EXIT_CODES.failure;
        }
      });
  }
}

/** The answer exactly as the API would send it (envelope, the route's fields built once, cut to the ceiling), parsed. */
async function wholeAnswer(result: RouteResult, route: RouteSpec, now: number): Promise<unknown> {
  const { prepareAnswer, renderAnswer } = await import("../../server/http/respond.ts");
  return JSON.parse(renderAnswer(prepareAnswer(result, route), randomUUID(), new Date(now).toISOString()).toString());
}
