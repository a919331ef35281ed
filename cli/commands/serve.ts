import type { Command } from "commander";
import type { ServeFlags } from "../serve/start-service.ts";

export function registerServeCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("serve")
    .description("Serve the API")
    .option("--port <port>", "port to listen on (env SERVICE_PORT, default 3000; 0 picks a free one)")
    .option("--host <host>", "address to listen on (env SERVICE_HOST, default 127.0.0.1)")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--registry-dir <dir>", "folder of registry sources (env SERVICE_REGISTRY_DIR, default data/registry)")
    .option("--env <name>", "deployment environment (env SERVICE_ENV, default development)")
    .option("--no-storage", "run with no durable store bound: storage-backed routes answer 503")
    .option(
      "--index-from <url>",
      "follow the index `ingest --publish-to` publishes to object storage: s3://bucket/prefix (env SERVICE_INDEX_FROM_URL)",
    )
    .option(
      "--seed-samples",
      "for a first run: ingest the bundled sample archive (data/samples) where the data directory has no index yet",
    )
    .action(async (flags: ServeFlags) => {
      // Loaded here, not at start-up, so `--help` and the other commands do not load the server.
      const { startService } = await import("../serve/start-service.ts");
      await startService(env, flags);
    });
}
