import { describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.ts";

describe("service help <command>", () => {
  it("answers an unknown command name as `service bogus` does: one line, the usage hint, exit code 2", () => {
    expect(runCli(["help", "query", "bogus"]).stderr).toBe(
      "error: unknown command 'query bogus'\n(run with --help for usage)\n",
    );
    for (const args of [
      ["help", "bogus"],
      ["keys", "help", "bogus"],
      ["query", "help", "bogus"],
    ]) {
      const result = runCli(args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toBe("error: unknown command 'bogus'\n(run with --help for usage)\n");
      expect(result.stdout, args.join(" ")).toBe("");
    }
  });

  it("prints the help of a command it knows, and its own with no name, on stdout with exit code 0", () => {
    for (const [args, usage] of [
      [["help"], "service [options] [command]"],
      [["help", "keys"], "service keys"],
      [["keys", "help", "list"], "service keys list"],
      [["help", "query", "events"], "service query events"],
      [["help", "help"], "service help"],
    ] as const) {
      const result = runCli([...args]);
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout, args.join(" ")).toMatch(new RegExp(`^Usage: ${usage.replace(/[[\]]/g, "\\$&")}`));
    }
  });
});
