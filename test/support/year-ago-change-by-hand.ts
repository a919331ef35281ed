/**
 * (current / yearAgo − 1) × 100, rounded half-up to `places` decimals, on the decimal strings in exact
 * integer arithmetic (an independent check of the service's decimal library).
 */
export function yearAgoChangeByHand(current: string, yearAgo: string, places: number): string {
  const parse = (text: string) => {
    const [whole, fraction = ""] = text.split(".");
    return { digits: BigInt(`${whole}${fraction}`), exponent: BigInt(fraction.length) };
  };
  const [a, b] = [parse(current), parse(yearAgo)];
  const numerator = (a.digits * 10n ** b.exponent - b.digits * 10n ** a.exponent) * 100n * 10n ** BigInt(places);
  const denominator = b.digits * 10n ** a.exponent;
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  const text = rounded.toString().padStart(places + 1, "0");
  return `${negative ? "-" : ""}${text.slice(0, text.length - places)}.${text.slice(text.length - places)}`;
}
