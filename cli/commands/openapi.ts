import type { Command } from "commander";
import { buildOpenApiDocument } from "../../schemas/openapi.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import { createIndexStorage } from "../../server/storage/index-storage.ts";
import { serviceConfigFrom } from "../config.ts";

export function registerOpenApiCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("openapi")
    .description("Print the OpenAPI 3.1 description of this deployment: as served at /api/v1/openapi.json, plus the operator routes")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--no-storage", "describe a deployment with no durable store bound")
    .action((options: { dataDir?: string; storage: boolean }) => {
      const config = serviceConfigFrom(env, options);
      const storage = createIndexStorage(config.dataDir, config.storageEnabled);
      const document = buildOpenApiDocument({ routes: ALL_ROUTES, includeOperatorRoutes: true, durableStorage: storage.ready(), environment: config.environment });
      process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    });
}
