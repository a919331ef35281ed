// The environment's values as the commands read them: one reading of a number or a switch, one error naming the variable.

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
