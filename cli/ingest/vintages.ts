import { Decimal } from "decimal.js";

/** The current vintage of one series and reference period, as the store holds it. */
interface CurrentVintage {
  sequence: number;
  value: string | null;
  publicationStatus: string | null;
}

interface IncomingValue {
  value: string | null;
  publicationStatus: string | null;
}

/**
 * Whether an incoming value is a new vintage of its period (spec "Observation revisions").
 * A changed number or publication status is a revision; a change in number formatting only
 * ("5.0" versus "5") or in a timestamp alone is not. Values are compared as exact decimals.
 */
export function isNewVintage(current: CurrentVintage | undefined, incoming: IncomingValue): boolean {
  if (!current) return true;
  if ((current.publicationStatus ?? null) !== (incoming.publicationStatus ?? null)) return true;
  return !sameDecimal(current.value, incoming.value);
}

function sameDecimal(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  try {
    return new Decimal(a).equals(new Decimal(b));
  } catch {
    // Not a number the publisher would write: fall back to the exact text.
    return a.trim() === b.trim();
  }
}
