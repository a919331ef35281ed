import { setTimeout as sleep } from "node:timers/promises";
import type { Server } from "srvx";

/**
 * On SIGTERM or SIGINT: stop accepting, let requests under way finish for up to `graceMs` (longer than the upstream
 * time-out, so one waiting on MET gets its answer), end what remains, and exit 0.
 */
export function drainOnSignals(
  server: Pick<Server, "close">,
  options: { graceMs: number; log: (line: string) => void; beforeExit?: () => Promise<void> },
): void {
  let draining = false;
  const drain = async (signal: string) => {
    if (draining) return;
    draining = true;
    options.log(
      `${signal}: accepting no new connections; letting requests under way finish (up to ${options.graceMs / 1000} s)`,
    );
    const finished = await Promise.race([
      server.close().then(() => true),
      sleep(options.graceMs, false, { ref: false }),
    ]);
    if (finished) {
      options.log("every request finished; stopped");
    } else {
      options.log(`requests still under way after ${options.graceMs / 1000} s: their connections were closed`);
      await server.close(true);
    }
    await options.beforeExit?.();
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void drain(signal));
}
