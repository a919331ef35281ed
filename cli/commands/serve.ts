import type { Command } from "commander";
import { serve } from "h3/node";
import { createApp } from "../../server/app.ts";
import { serveOptionsFrom, serviceConfigFrom } from "../config.ts";
import { rebuildRegistry } from "./registry.ts";

interface ServeFlags {
  port?: string;
  host?: string;
  dataDir?: string;
  storage: boolean;
  env?: string;
}

export function registerServeCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("serve")
    .description("Serve the API")
    .option("--port <port>", "port to listen on (env SERVICE_PORT, default 3000; 0 picks a free one)")
    .option("--host <host>", "address to listen on (env SERVICE_HOST, default 127.0.0.1)")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--env <name>", "deployment environment (env SERVICE_ENV, default development)")
    .option("--no-storage", "run with no durable store bound: storage-backed routes answer 503")
    .action(async (flags: ServeFlags) => {
      const config = serviceConfigFrom(env, flags);
      const { port, host } = serveOptionsFrom(env, flags);
      rebuildRegistry(config.dataDir);
      const server = serve(createApp({ config }), { port, hostname: host, silent: true });
      await server.ready();
      process.stdout.write(`service (${config.environment}) listening on ${server.url} with data in ${config.dataDir}${config.storageEnabled ? "" : " (no durable storage)"}\n`);
    });
}
