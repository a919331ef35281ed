/** An instant as ISO 8601 UTC text, remembered for the last millisecond asked (docs/performance.md). */
let lastInstant = Number.NaN;
let lastText = "";

export function isoInstant(epochMs: number): string {
  if (epochMs !== lastInstant) {
    lastText = new Date(epochMs).toISOString();
    lastInstant = epochMs;
  }
  return lastText;
}
