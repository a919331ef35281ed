import { randomUUID } from "node:crypto";
import { type Command, Option } from "commander";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import { systemClock } from "../../server/config.ts";
import { ApiError } from "../../server/http/api-error.ts";
import type { RouteResult } from "../../server/http/route-handler.ts";
import { serviceConfigFrom } from "../config.ts";
import { QUERY_VIEWS, type QueryView, type QueryViewName } from "../query/columns.ts";
import { pageNote } from "../query/page-note.ts";
import { EXIT_CODES, USAGE_HINT } from "../usage.ts";

interface Subcommand {
  route: string;
  view: QueryViewName;
  /** A route answering the same question about the past, taken when one of `parameters` (its own) is given. */
  past?: { route: string; parameters: string[] };
}

/** Each subcommand runs the handler of one API route, so parameters, rules and error codes are the API's own. */
const SUBCOMMANDS: Record<string, Subcommand> = {
  events: { route: "v1.economics.events", view: "events" },
  calendar: { route: "v1.economics.calendar", view: "calendar" },
  releases: { route: "public.economics.releases", view: "releases" },
  observations: {
    route: "public.economics.observations",
    view: "observations",
    past: { route: "v1.economics.seriesObservations", parameters: ["asOf", "vintages"] },
  },
  series: { route: "v1.economics.series", view: "series" },
  indicators: { route: "v1.economics.indicators", view: "indicators" },
};

/** API parameters that are switches on the command line: what the flag says, and the value it sends. */
const SWITCHES: Record<string, { description: string; value: string }> = {
  timezone: { description: "add each event's local date and time, in --tz (UTC without it)", value: "on" },
  vintages: {
    description: "every vintage of each period, oldest first (with --as-of, those recorded by then)",
    value: "all",
  },
};

/** The flag of an API parameter: `perSeries` is `--per-series` (commander reads it back as `perSeries`). */
const flagOf = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * A bad value is a usage error (exit 2, with the usage hint); everything else is a failure (exit 1): an unknown slug
 * (NOT_FOUND: the command was right, the thing is not there) and data that cannot be read.
 */
const USAGE_CODES = new Set(["VALIDATION_FAILED", "ECONOMICS_RANGE_INVALID"]);

/** The answers of a data directory whose files are missing or damaged: said naming the directory and the file. */
const UNAVAILABLE_CODES = new Set(["SERVICE_UNAVAILABLE", "STORAGE_UNAVAILABLE", "CONFIGURATION_ERROR"]);

const routeNamed = (name: string) => ALL_ROUTES.find((candidate) => candidate.name === name)!;

/** The route's query parameters as options: kebab-case flags, the API's own spelling kept as a hidden alias. */
function addParameterOptions(command: Command, route: RouteSpec, only?: string[]): void {
  for (const parameter of route.parameters) {
    if (parameter.in !== "query" || route.ignoredParameters.includes(parameter.name)) continue;
    if (only && !only.includes(parameter.name)) continue;
    const flag = flagOf(parameter.name);
    const switched = SWITCHES[parameter.name];
    const option = switched
      ? new Option(`--${flag}`, switched.description)
      : new Option(`--${flag} <value>`, parameter.description);
    // A switch given a value anyway (`--timezone yes`, as the API's parameter and older versions of this flag take
    // one) passes it to the API as it is, under the API's rule for it.
    if (switched) option.optional = true;
    command.addOption(option);
    if (flag !== parameter.name) command.addOption(new Option(`--${parameter.name} <value>`).hideHelp());
  }
}

export function registerQueryCommand(program: Command, env: NodeJS.ProcessEnv): void {
  const query = program
    .command("query")
    .description(
      "Inspect the local data with the API's own readers: events, calendar, releases, observations, series, indicators",
    );
  for (const [name, subcommand] of Object.entries(SUBCOMMANDS)) {
    const route = routeNamed(subcommand.route);
    const past = subcommand.past ? routeNamed(subcommand.past.route) : null;
    // Created through the parent so it inherits the program's settings: usage errors exit 2 with a hint.
    const command = query
      .command(name)
      .description(
        `${route.summary} (as GET ${route.path}${past ? `; with ${subcommand.past!.parameters.map((parameter) => `--${flagOf(parameter)}`).join(" or ")}, as GET ${past.path}` : ""})`,
      );
    const takes = {
      limit: route.parameters.some((parameter) => parameter.name === "limit"),
      cursor: route.parameters.some((parameter) => parameter.name === "cursor"),
    };
    addParameterOptions(command, route);
    if (past) addParameterOptions(command, past, subcommand.past!.parameters);
    command
      .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
      .addOption(new Option("--json", "print the whole { data, meta } answer as JSON").conflicts("csv"))
      .option("--csv", "print the rows as CSV")
      .addHelpText(
        "after",
        "\nOn a terminal the rows are a table fitted to its width (COLUMNS overrides it): values are never cut, titles wrap,\nand columns that do not fit are left out and named; a last line says how to get more rows when there are.\nWhen stdout is not a terminal, tab-separated values (a header row, values whole) and that line on stderr.\nWith --csv, CSV rows, and that line on stderr.",
      )
      .action(async (options: Record<string, string | boolean | undefined>) => {
        const config = serviceConfigFrom(env, { dataDir: options.dataDir as string | undefined });
        const asked = (parameter: string) => options[parameter] !== undefined;
        const askingPast = subcommand.past?.parameters.some(asked) ?? false;
        const answering = askingPast ? past! : route;
        const parameters = new URLSearchParams();
        for (const parameter of [...route.parameters, ...(past?.parameters ?? [])]) {
          const value = options[parameter.name];
          if (value === true) parameters.set(parameter.name, SWITCHES[parameter.name]!.value);
          else if (typeof value === "string") parameters.set(parameter.name, value);
        }
        const { createRouteHandlers } = await import("../../server/route-handlers.ts");
        const { createIndexStorage } = await import("../../server/storage/index-storage.ts");
        const clock = systemClock;
        const storage = createIndexStorage(config.dataDir, config.durableStorage);
        const handlers = createRouteHandlers({ config, clock, storage, weather: null });
        try {
          // The past route names its series in the path.
          const slug = parameters.get("series");
          if (askingPast && slug === null) throw new ApiError("VALIDATION_FAILED", "series is required.");
          const params: Record<string, string> = askingPast ? { slug: slug! } : {};
          if (askingPast) parameters.delete("series");
          const result = await handlers[answering.name]!({
            query: parameters,
            params,
            principal: null,
            now: clock.now(),
          });
          const data = result.data as Record<string, unknown>;
          const meta = result.meta ?? {};
          const view: QueryView = QUERY_VIEWS[pastView(subcommand.view, options)];
          if (options.json)
            return void process.stdout.write(
              `${JSON.stringify(await wholeAnswer(result, answering, clock.now()), null, 2)}\n`,
            );
          const note = pageNote(view.rows(data).length, meta, takes);
          // Loaded when rows are printed: `service --help` and the other commands need none of it.
          const { renderCsv, renderTable, renderTsv } = await import("../query/render.ts");
          const { terminalWidth } = await import("../terminal-table.ts");
          if (process.stdout.isTTY && !options.csv) {
            const table = renderTable(view, data, terminalWidth(env, process.stdout));
            process.stdout.write(table + (note ? `${note}\n` : ""));
          } else {
            // Rows meant for another program: the note goes beside them on stderr, never among them.
            process.stdout.write(options.csv ? renderCsv(view, data) : renderTsv(view, data));
            if (note) process.stderr.write(`${note}\n`);
          }
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          if (UNAVAILABLE_CODES.has(error.code)) {
            const { noDataLine, unreadableDataFiles } = await import("../query/data-dir-problems.ts");
            const unreadable = unreadableDataFiles(config.dataDir, config.durableStorage);
            process.stderr.write(
              unreadable.length > 0
                ? unreadable.map((line) => `error: ${line}\n`).join("")
                : `${noDataLine(error.code, error.message, config.dataDir, config.durableStorage)}\n`,
            );
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

/** The view of `observations --vintages` (one row per vintage) and `--as-of` (with the vintage and its time). */
function pastView(view: QueryViewName, options: Record<string, unknown>): QueryViewName {
  if (view !== "observations") return view;
  if (options.vintages !== undefined) return "observationVintages";
  return options.asOf !== undefined ? "observationsAsOf" : view;
}

/** The answer exactly as the API would send it (envelope, the route's fields built once, cut to the ceiling), parsed. */
async function wholeAnswer(result: RouteResult, route: RouteSpec, now: number): Promise<unknown> {
  const { prepareAnswer } = await import("../../server/http/prepared-answer.ts");
  const { renderAnswer } = await import("../../server/http/envelope.ts");
  return JSON.parse(renderAnswer(prepareAnswer(result, route), randomUUID(), new Date(now).toISOString()).toString());
}
