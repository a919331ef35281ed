/** Exit codes of every command (docs/cli.md): a usage error is a bad command line or configuration. */
export const EXIT_CODES = { failure: 1, usage: 2 } as const;

/** The line after every usage error's one-line message. */
export const USAGE_HINT = "(run with --help for usage)";
