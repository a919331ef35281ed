import type { Command } from "commander";
import { serviceConfigFrom } from "../config.ts";

export function registerOpenApiCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("openapi")
    .description(
      "Print the OpenAPI 3.1 description of this deployment: as served at /api/v1/openapi.json, plus the operator routes",
    )
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--no-storage", "describe a deployment with no durable store bound")
    .action(async (options: { dataDir?: string; storage: boolean }) => {
      const config = serviceConfigFrom(env, options);
      const { buildOpenApiDocument } = await import("../../schemas/openapi.ts");
      const { ALL_ROUTES } = await import("../../schemas/routes/all-routes.ts");
      const { createIndexStorage } = await import("../../server/storage/index-storage.ts");
      const storage = createIndexStorage(config.dataDir, config.durableStorage);
      const document = buildOpenApiDocument({
        routes: ALL_ROUTES,
        includeOperatorRoutes: true,
        durableStorage: storage.ready(),
        environment: config.environment,
      });
      process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    });
}
