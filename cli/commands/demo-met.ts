import type { Command } from "commander";
import type { DemoMetFlags } from "../demo/run-demo-met.ts";

export function registerDemoMetCommand(program: Command): void {
  program
    .command("demo-met")
    .description(
      "Start a local stand-in MET server for trying the weather routes offline (its answers are NOT real weather)",
    )
    .option("--port <port>", "port to listen on (default 8099; 0 picks a free one)")
    .option("--host <host>", "address to listen on (default 127.0.0.1)")
    .action(async (flags: DemoMetFlags) => {
      // Loaded here, not at start-up, so `--help` and the other commands do not read the recorded forecast.
      const { runDemoMet } = await import("../demo/run-demo-met.ts");
      await runDemoMet(flags);
    });
}
