import { integerVariable, nonEmptyFlag } from "../env-values.ts";
import { listenFailure } from "../listen-failure.ts";
import { MET_STANDIN_NOTICE, startMetStandin } from "./met-standin.ts";

/** The flags of `service demo-met`, as commander hands them over. */
export interface DemoMetFlags {
  port?: string;
  host?: string;
}

/** Away from the service's own default (3000), so both run side by side without flags. */
const DEFAULT_PORT = 8099;
const DEFAULT_HOST = "127.0.0.1";

/**
 * `service demo-met`: serves the stand-in MET until SIGINT or SIGTERM, then closes it and returns, so the process
 * exits 0. It prints the exact command that points a service at it, since that variable is the whole trick.
 */
export async function runDemoMet(flags: DemoMetFlags): Promise<void> {
  const { port, host } = demoAddressFrom(flags);
  // A port already taken is the likely failure (a second demo, or another program on 8099): say what to do.
  const standin = await startMetStandin({ host, port }).catch((error: unknown) => {
    throw listenFailure(error, { port, host, portSetting: "--port", hostSetting: "--host" });
  });
  const reachable = reachableUrl(standin.url);
  process.stdout.write(
    `stand-in MET listening on ${standin.url}\n` +
      `${MET_STANDIN_NOTICE}\n` +
      `in another terminal, run:\n` +
      `  SERVICE_WEATHER_BASE_URL=${reachable} npx service serve --seed-samples\n` +
      `press Ctrl-C to stop\n`,
  );
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await standin.close();
  process.stderr.write(`stand-in MET stopped (${signal})\n`);
}

/** Flags only: SERVICE_PORT and SERVICE_HOST belong to the service, which must not land on the stand-in's port. */
function demoAddressFrom(flags: DemoMetFlags): { port: number; host: string } {
  const port = integerVariable(nonEmptyFlag(flags.port, "--port"), "--port", DEFAULT_PORT, 0, 65535);
  const host = nonEmptyFlag(flags.host, "--host") ?? DEFAULT_HOST;
  return { port, host };
}

/** A stand-in listening on every interface is reached through loopback: 0.0.0.0 or [::] is no address to connect to. */
function reachableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === "0.0.0.0") parsed.hostname = "127.0.0.1";
  else if (parsed.hostname === "[::]") parsed.hostname = "[::1]";
  return parsed.origin;
}
