// The environment's values and flags as the commands read them: one reading of a number, a switch or a flag's text,
// one error naming the variable or flag.

/** A configuration problem, named: which variable or flag, and what is wrong with it. */
export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function integerVariable(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^[0-9]+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

export function booleanVariable(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(`${name} must be true or false`);
}

/**
 * A flag given an empty value (`--data-dir "$UNSET"`) is a usage error: taken as the default, or resolved to the
 * current directory, it would quietly serve or write somewhere the operator did not name.
 */
export function nonEmptyFlag(flag: string | undefined, name: string): string | undefined {
  if (flag !== undefined && flag.trim() === "") throw new ConfigError(`${name} must not be empty`);
  return flag;
}
