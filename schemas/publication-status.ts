import type { Publisher } from "./vocabularies.ts";

/**
 * How final a publisher's status of a value is, for what the service derives from several values (a derived value
 * carries the least final status of its inputs). Each publisher marks a value that is not final yet with its own codes,
 * listed least final first; any other status (none, the ECB's `A` "normal value", a break or definition flag, a gap
 * mark) says nothing against finality.
 * - BLS footnote codes, comma-joined (`P,X`): `P` preliminary.
 * - Eurostat flags, one letter each (`bp` is a break and provisional), before a `|` confidentiality part: `f` forecast,
 *   `e` estimated, `p` provisional.
 * - ECB `OBS_STATUS` (SDMX code list CL_OBS_STATUS): `F` forecast, `E` estimated, `P` provisional.
 */
const NOT_FINAL: Record<Publisher, readonly string[]> = {
  BLS: ["P"],
  EUROSTAT: ["f", "e", "p"],
  ECB: ["F", "E", "P"],
};

/** The codes a status is made of, in the publisher's notation. */
function codesOf(publisher: Publisher, status: string): string[] {
  if (publisher === "BLS") return status.split(",").map((code) => code.trim());
  if (publisher === "EUROSTAT") return [...(status.split("|")[0] ?? "")];
  return [status.trim()];
}

/** 0 for the least final status the publisher has, up to the number of its not-final codes for a final one. */
function finalityRank(publisher: Publisher, status: string | null): number {
  const notFinal = NOT_FINAL[publisher];
  if (status === null) return notFinal.length;
  const ranks = codesOf(publisher, status)
    .map((code) => notFinal.indexOf(code))
    .filter((rank) => rank >= 0);
  return ranks.length > 0 ? Math.min(...ranks) : notFinal.length;
}

/**
 * The least final of the statuses of a derived value's inputs, as the publisher wrote it; where several are equally
 * final, the first (a derivation lists the period's own input first). Null for no inputs.
 */
export function leastFinalStatus(publisher: Publisher, statuses: readonly (string | null)[]): string | null {
  let chosen: string | null = null;
  let chosenRank = Number.POSITIVE_INFINITY;
  for (const status of statuses) {
    const rank = finalityRank(publisher, status);
    if (rank < chosenRank) [chosen, chosenRank] = [status, rank];
  }
  return chosen;
}
